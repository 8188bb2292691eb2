#include "CConfinedOpen.h"

#include <errno.h>

#if defined(__linux__)
#include <linux/openat2.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

int daybook_open_beneath(int dirfd, const char *path, int flags, int no_links) {
#if defined(__linux__) && defined(SYS_openat2)
    struct open_how how = {0};
    how.flags = (unsigned long long)flags;
    how.resolve = RESOLVE_BENEATH | (no_links ? RESOLVE_NO_SYMLINKS : 0);
    return (int)syscall(SYS_openat2, dirfd, path, &how, sizeof how);
#else
    (void)dirfd;
    (void)path;
    (void)flags;
    (void)no_links;
    errno = ENOSYS;
    return -1;
#endif
}
