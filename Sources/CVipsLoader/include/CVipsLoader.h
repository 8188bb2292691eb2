// libvips, loaded when the first photo needs it rather than when `daybook` starts.
//
// Written by hand because linking libvips made every command load it and the hundred libraries
// it pulls in (HEIF, TIFF, SVG, PDF, OpenEXR…): 18 ms of a 31 ms start, a fifth of a no-change
// rebuild, for builds that encode no photo. These functions open libvips.so.42 with dlopen on the
// first `dbvips_start` and call it through the pointers dlsym gives; the variadic calls Swift
// cannot make are fixed-argument functions here. No libvips header is read: an image is opaque,
// and the few enumeration values passed are spelled out below, each held to libvips's own
// headers by a test (`VipsLoaderTests`).
#ifndef DAYBOOK_CVIPSLOADER_H
#define DAYBOOK_CVIPSLOADER_H

#include <stddef.h>

/// A `VipsImage`, only ever handed back to libvips.
typedef struct DbVipsImage DbVipsImage;

/// `VipsSize`, `VipsInteresting`, `VipsAccess`, `VipsInterpretation` and `VipsBandFormat` values.
enum {
    DBVIPS_SIZE_BOTH = 0,
    DBVIPS_SIZE_DOWN = 2,
    DBVIPS_SIZE_FORCE = 3,
    DBVIPS_INTERESTING_NONE = 0,
    DBVIPS_INTERESTING_CENTRE = 1,
    DBVIPS_INTERESTING_ATTENTION = 3,
    DBVIPS_ACCESS_SEQUENTIAL = 1,
    DBVIPS_INTERPRETATION_SRGB = 22,
    DBVIPS_FORMAT_UCHAR = 0,
};

/// The soname's major version this loader opens (`libvips.so.42`, libvips 8.x).
#define DBVIPS_ABI 42

/// Opens and starts libvips once per process (ABI checked, no operation cache, one worker per
/// pipeline, untrusted loaders blocked, no run-time code generation): 0, or -1 with
/// `dbvips_unavailable` saying why. Not
/// thread-safe: call it from one `static let`.
int dbvips_start(void);
/// Why libvips could not be started, or NULL.
const char *dbvips_unavailable(void);

const char *dbvips_version_string(void);
const char *dbvips_foreign_find_load_buffer(const void *data, size_t length);
char *dbvips_error_buffer_copy(void);
void dbvips_g_free(void *memory);
void dbvips_unref(DbVipsImage *image);
int dbvips_width(DbVipsImage *image);
int dbvips_height(DbVipsImage *image);
int dbvips_bands(DbVipsImage *image);
unsigned long dbvips_get_typeof(DbVipsImage *image, const char *name);
int dbvips_orientation(DbVipsImage *image);
char **dbvips_get_fields(DbVipsImage *image);
void dbvips_strfreev(char **fields);
int dbvips_remove(DbVipsImage *image, const char *name);
DbVipsImage *dbvips_copy_memory(DbVipsImage *image);
void *dbvips_write_to_memory(DbVipsImage *image, size_t *length);

DbVipsImage *dbvips_header(const void *data, size_t length);
/// `crop` is a `DBVIPS_INTERESTING_*` value.
int dbvips_thumbnail_buffer(const void *data, size_t length, DbVipsImage **out, int width, int height, int size, int crop, int to_srgb);
int dbvips_thumbnail_image(DbVipsImage *in, DbVipsImage **out, int width, int height, int size, int attention);
int dbvips_webpsave(DbVipsImage *in, void **buffer, size_t *length, int quality);
int dbvips_jpegsave(DbVipsImage *in, void **buffer, size_t *length, int quality);
int dbvips_pngsave(DbVipsImage *in, void **buffer, size_t *length);
int dbvips_srgb8(DbVipsImage *in, DbVipsImage **out);

#endif
