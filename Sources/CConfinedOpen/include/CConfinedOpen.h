// openat2(2) with RESOLVE_BENEATH, which glibc 2.36 (Debian 12) has no wrapper for and Swift
// cannot call through the variadic syscall(2).
//
// Written by hand because no listed package opens a file confined to a folder: checking a path
// with realpath(3) and then opening it leaves a window in which a folder on the way can be
// swapped for a symbolic link out of the site. With RESOLVE_BENEATH the kernel resolves the path
// and refuses, in the same call, any step that leaves the folder.
#ifndef DAYBOOK_CCONFINEDOPEN_H
#define DAYBOOK_CCONFINEDOPEN_H

/// Opens `path` (relative) below the folder open at `dirfd`, following links only while they
/// stay below it (absolute links are refused too), or none at all with `no_links`. Returns the
/// descriptor, or -1 with errno set: EXDEV for a step out of the folder, ELOOP for a link under
/// `no_links`, ENOSYS where the kernel (before Linux 5.6) or the system has no openat2.
int daybook_open_beneath(int dirfd, const char *path, int flags, int no_links);

#endif
