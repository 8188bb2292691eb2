// libvips for Swift: the variadic calls Daybook needs, wrapped in fixed-argument inline functions,
// because Swift cannot call C functions that take `...`.
#ifndef DAYBOOK_CVIPS_SHIM_H
#define DAYBOOK_CVIPS_SHIM_H

#include <vips/vips.h>

/// Starts libvips once: checks the ABI (VIPS_INIT), turns the operation cache off (every image is
/// decoded once, so cached operations would only hold memory), gives each pipeline one worker thread
/// (Daybook runs one image per core instead), and blocks the loaders libvips marks untrusted
/// (ImageMagick, SVG, PDF, JPEG 2000…), so only the formats Daybook means to read are ever parsed.
static inline int daybook_vips_start(void) {
    if (VIPS_INIT("daybook")) return -1;
    vips_cache_set_max(0);
    vips_cache_set_max_mem(0);
    vips_concurrency_set(1);
    vips_block_untrusted_set(TRUE);
    return 0;
}

/// The header of an encoded image, read lazily with sequential access (no pixels are decoded).
static inline VipsImage *daybook_vips_header(const void *data, size_t length) {
    return vips_image_new_from_buffer(data, length, "", "access", VIPS_ACCESS_SEQUENTIAL, NULL);
}

/// Decodes with shrink-on-load and resizes to `width` × `height`, upright (autorotated):
/// `size` is a VipsSize (DOWN fits inside the box, never upscaling; FORCE makes exactly that size),
/// `attention` crops to the box around the most interesting region, and `to_srgb` converts an image
/// with an embedded colour profile to sRGB (vips_thumbnail otherwise keeps the profile's colours).
static inline int daybook_vips_thumbnail_buffer(const void *data, size_t length, VipsImage **out,
                                                int width, int height, int size, int attention, int to_srgb) {
    VipsInteresting crop = attention ? VIPS_INTERESTING_ATTENTION : VIPS_INTERESTING_NONE;
    if (to_srgb)
        return vips_thumbnail_buffer((void *)data, length, out, width, "height", height, "size", size,
                                     "crop", crop, "export_profile", "srgb", NULL);
    return vips_thumbnail_buffer((void *)data, length, out, width, "height", height, "size", size,
                                 "crop", crop, NULL);
}

/// The same from an image already decoded (smaller copies are made from the largest, not the source).
static inline int daybook_vips_thumbnail_image(VipsImage *in, VipsImage **out, int width, int height, int size, int attention) {
    return vips_thumbnail_image(in, out, width,
                                "height", height,
                                "size", size,
                                "crop", attention ? VIPS_INTERESTING_ATTENTION : VIPS_INTERESTING_NONE,
                                NULL);
}

static inline int daybook_vips_copy(VipsImage *in, VipsImage **out) {
    return vips_copy(in, out, NULL);
}

static inline int daybook_vips_webpsave(VipsImage *in, void **buffer, size_t *length, int quality) {
    return vips_webpsave_buffer(in, buffer, length, "Q", quality, "strip", TRUE, NULL);
}

static inline int daybook_vips_jpegsave(VipsImage *in, void **buffer, size_t *length, int quality) {
    return vips_jpegsave_buffer(in, buffer, length, "Q", quality, "strip", TRUE,
                                "optimize_coding", TRUE, "interlace", TRUE, NULL);
}

static inline int daybook_vips_pngsave(VipsImage *in, void **buffer, size_t *length) {
    return vips_pngsave_buffer(in, buffer, length, "strip", TRUE, NULL);
}

/// HEIC, for tests that need a HEIC file made on this system.
static inline int daybook_vips_heifsave(VipsImage *in, void **buffer, size_t *length) {
    return vips_heifsave_buffer(in, buffer, length, NULL);
}

/// 8-bit sRGB with three bands: alpha flattened onto white, grey and 16-bit images converted.
static inline int daybook_vips_srgb8(VipsImage *in, VipsImage **out) {
    VipsImage *rgb = NULL, *flat = NULL;
    if (vips_colourspace(in, &rgb, VIPS_INTERPRETATION_sRGB, NULL)) return -1;
    if (vips_image_hasalpha(rgb)) {
        double white[3] = {255, 255, 255};
        VipsArrayDouble *background = vips_array_double_new(white, 3);
        int failed = vips_flatten(rgb, &flat, "background", background, NULL);
        vips_area_unref(VIPS_AREA(background));
        g_object_unref(rgb);
        if (failed) return -1;
    } else {
        flat = rgb;
    }
    int failed = vips_cast(flat, out, VIPS_FORMAT_UCHAR, NULL);
    g_object_unref(flat);
    return failed;
}

#endif
