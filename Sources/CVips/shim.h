// libvips for the image tests, which make their source images with it: the savers they need
// beyond CVipsLoader's (PNG, HEIC), wrapped in fixed-argument inline functions, because Swift
// cannot call C functions that take `...`. Daybook itself calls libvips through CVipsLoader.
#ifndef DAYBOOK_CVIPS_SHIM_H
#define DAYBOOK_CVIPS_SHIM_H

#include <vips/vips.h>
// Not included by vips.h: whether Orc, the run-time code generator, is on (CVipsLoader turns it off).
#include <vips/vector.h>

static inline int daybook_vips_pngsave(VipsImage *in, void **buffer, size_t *length) {
    return vips_pngsave_buffer(in, buffer, length, "strip", TRUE, NULL);
}

/// HEIC, for tests that need a HEIC file made on this system.
static inline int daybook_vips_heifsave(VipsImage *in, void **buffer, size_t *length) {
    return vips_heifsave_buffer(in, buffer, length, NULL);
}

#endif
