// See CVipsLoader.h: libvips through dlopen and dlsym.
#include "CVipsLoader.h"

#include <dlfcn.h>
#include <stdio.h>

// The calls, as libvips declares them (a `gboolean` is an int, a `GType` an unsigned long).
static struct {
    int (*init)(const char *);
    int (*version)(int);
    void (*cache_set_max)(int);
    void (*cache_set_max_mem)(size_t);
    void (*concurrency_set)(int);
    void (*block_untrusted_set)(int);
    void (*vector_set_enabled)(int);
    const char *(*version_string)(void);
    const char *(*foreign_find_load_buffer)(const void *, size_t);
    char *(*error_buffer_copy)(void);
    void (*g_free)(void *);
    void (*g_object_unref)(void *);
    void (*g_strfreev)(char **);
    int (*get_width)(const DbVipsImage *);
    int (*get_height)(const DbVipsImage *);
    int (*get_bands)(const DbVipsImage *);
    unsigned long (*get_typeof)(const DbVipsImage *, const char *);
    int (*get_orientation)(DbVipsImage *);
    char **(*get_fields)(DbVipsImage *);
    int (*remove)(DbVipsImage *, const char *);
    DbVipsImage *(*copy_memory)(DbVipsImage *);
    void *(*write_to_memory)(DbVipsImage *, size_t *);
    int (*hasalpha)(DbVipsImage *);
    void *(*array_double_new)(const double *, int);
    void (*area_unref)(void *);
    DbVipsImage *(*new_from_buffer)(const void *, size_t, const char *, ...);
    int (*thumbnail_buffer)(void *, size_t, DbVipsImage **, int, ...);
    int (*thumbnail_image)(DbVipsImage *, DbVipsImage **, int, ...);
    int (*webpsave_buffer)(DbVipsImage *, void **, size_t *, ...);
    int (*jpegsave_buffer)(DbVipsImage *, void **, size_t *, ...);
    int (*pngsave_buffer)(DbVipsImage *, void **, size_t *, ...);
    int (*colourspace)(DbVipsImage *, DbVipsImage **, int, ...);
    int (*flatten)(DbVipsImage *, DbVipsImage **, ...);
    int (*cast)(DbVipsImage *, DbVipsImage **, int, ...);
    unsigned (*log_set_handler)(const char *, int, void (*)(const char *, int, const char *, void *), void *);
} vips;

// GLib's log levels (GLogLevelFlags) that libvips uses for what it recovers from.
enum { DBVIPS_LOG_WARNING = 1 << 4, DBVIPS_LOG_MESSAGE = 1 << 5, DBVIPS_LOG_INFO = 1 << 6, DBVIPS_LOG_DEBUG = 1 << 7 };

// libvips's warnings on a damaged photo ("VipsJpeg: Premature end of JPEG file") went to standard
// error in GLib's own form, a process id and a time, among Daybook's `path:line:column`
// diagnostics (CONTRACT §6). A photo that fails to load is reported by Daybook with libvips's
// error text at the field that names it; what libvips recovers from is not worth a line.
static void quiet(const char *domain, int level, const char *message, void *data) {
    (void)domain;
    (void)level;
    (void)message;
    (void)data;
}

static const char *unavailable = "libvips has not been started";
static char reason[512];

static int resolve(void *library, void **slot, const char *name) {
    *slot = dlsym(library, name);
    if (*slot) return 0;
    snprintf(reason, sizeof reason, "libvips.so.%d has no %s: install libvips 8.x (Debian: libvips42)", DBVIPS_ABI, name);
    unavailable = reason;
    return -1;
}

int dbvips_start(void) {
    void *library = dlopen("libvips.so.42", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(reason, sizeof reason, "cannot load libvips.so.%d (Debian: apt-get install libvips42): %s", DBVIPS_ABI, dlerror());
        unavailable = reason;
        return -1;
    }
#define RESOLVE(field, name) if (resolve(library, (void **)&vips.field, name)) return -1
    RESOLVE(init, "vips_init");
    RESOLVE(version, "vips_version");
    RESOLVE(cache_set_max, "vips_cache_set_max");
    RESOLVE(cache_set_max_mem, "vips_cache_set_max_mem");
    RESOLVE(concurrency_set, "vips_concurrency_set");
    RESOLVE(block_untrusted_set, "vips_block_untrusted_set");
    RESOLVE(vector_set_enabled, "vips_vector_set_enabled");
    RESOLVE(version_string, "vips_version_string");
    RESOLVE(foreign_find_load_buffer, "vips_foreign_find_load_buffer");
    RESOLVE(error_buffer_copy, "vips_error_buffer_copy");
    RESOLVE(g_free, "g_free");
    RESOLVE(g_object_unref, "g_object_unref");
    RESOLVE(g_strfreev, "g_strfreev");
    RESOLVE(get_width, "vips_image_get_width");
    RESOLVE(get_height, "vips_image_get_height");
    RESOLVE(get_bands, "vips_image_get_bands");
    RESOLVE(get_typeof, "vips_image_get_typeof");
    RESOLVE(get_orientation, "vips_image_get_orientation");
    RESOLVE(get_fields, "vips_image_get_fields");
    RESOLVE(remove, "vips_image_remove");
    RESOLVE(copy_memory, "vips_image_copy_memory");
    RESOLVE(write_to_memory, "vips_image_write_to_memory");
    RESOLVE(hasalpha, "vips_image_hasalpha");
    RESOLVE(array_double_new, "vips_array_double_new");
    RESOLVE(area_unref, "vips_area_unref");
    RESOLVE(new_from_buffer, "vips_image_new_from_buffer");
    RESOLVE(thumbnail_buffer, "vips_thumbnail_buffer");
    RESOLVE(thumbnail_image, "vips_thumbnail_image");
    RESOLVE(webpsave_buffer, "vips_webpsave_buffer");
    RESOLVE(jpegsave_buffer, "vips_jpegsave_buffer");
    RESOLVE(pngsave_buffer, "vips_pngsave_buffer");
    RESOLVE(colourspace, "vips_colourspace");
    RESOLVE(flatten, "vips_flatten");
    RESOLVE(cast, "vips_cast");
    RESOLVE(log_set_handler, "g_log_set_handler");
#undef RESOLVE
    // VIPS_INIT's ABI check: the library's current minus age is its soname's major.
    if (vips.version(3) - vips.version(5) != DBVIPS_ABI) {
        snprintf(reason, sizeof reason, "libvips.so.%d reports ABI %d", DBVIPS_ABI, vips.version(3) - vips.version(5));
        unavailable = reason;
        return -1;
    }
    if (vips.init("daybook")) {
        unavailable = "libvips did not start";
        return -1;
    }
    // No operation cache (every image is decoded once, so cached operations would only hold
    // memory), one worker per pipeline (Daybook runs one image per core), and the loaders
    // libvips marks untrusted (ImageMagick, SVG, PDF, JPEG 2000…) blocked, so only the formats
    // Daybook means to read are ever parsed.
    vips.cache_set_max(0);
    vips.cache_set_max_mem(0);
    vips.concurrency_set(1);
    vips.block_untrusted_set(1);
    // No code generated at run time (Orc, what VIPS_NOVECTOR=1 turns off): the test suite, which
    // encodes photos on every core at once, crashed inside Debian's liborc 0.4.33 once, a kind
    // of crash libvips's and sharp's trackers know; the codecs, which take most of an encode,
    // do not use it.
    vips.vector_set_enabled(0);
    vips.log_set_handler("VIPS", DBVIPS_LOG_WARNING | DBVIPS_LOG_MESSAGE | DBVIPS_LOG_INFO | DBVIPS_LOG_DEBUG, quiet, NULL);
    unavailable = NULL;
    return 0;
}

const char *dbvips_unavailable(void) { return unavailable; }

const char *dbvips_version_string(void) { return vips.version_string(); }
const char *dbvips_foreign_find_load_buffer(const void *data, size_t length) { return vips.foreign_find_load_buffer(data, length); }
char *dbvips_error_buffer_copy(void) { return vips.error_buffer_copy(); }
void dbvips_g_free(void *memory) { vips.g_free(memory); }
void dbvips_unref(DbVipsImage *image) { vips.g_object_unref(image); }
int dbvips_width(DbVipsImage *image) { return vips.get_width(image); }
int dbvips_height(DbVipsImage *image) { return vips.get_height(image); }
int dbvips_bands(DbVipsImage *image) { return vips.get_bands(image); }
unsigned long dbvips_get_typeof(DbVipsImage *image, const char *name) { return vips.get_typeof(image, name); }
int dbvips_orientation(DbVipsImage *image) { return vips.get_orientation(image); }
char **dbvips_get_fields(DbVipsImage *image) { return vips.get_fields(image); }
void dbvips_strfreev(char **fields) { vips.g_strfreev(fields); }
int dbvips_remove(DbVipsImage *image, const char *name) { return vips.remove(image, name); }
DbVipsImage *dbvips_copy_memory(DbVipsImage *image) { return vips.copy_memory(image); }
void *dbvips_write_to_memory(DbVipsImage *image, size_t *length) { return vips.write_to_memory(image, length); }

DbVipsImage *dbvips_header(const void *data, size_t length) {
    return vips.new_from_buffer(data, length, "", "access", DBVIPS_ACCESS_SEQUENTIAL, NULL);
}

// The photo is loaded with `fail_on=truncated`: by default libvips decodes what a cut-off file
// holds and fills the rest with grey, and a damaged photo was published as its copies, half grey,
// with no word (CONTRACT §7: a file that cannot be decoded is an error at its field). Lesser
// faults a camera's file may have (stray bytes between markers) still load.
static const char *load_options = "fail_on=truncated";

int dbvips_thumbnail_buffer(const void *data, size_t length, DbVipsImage **out, int width, int height, int size, int crop, int to_srgb) {
    if (to_srgb)
        return vips.thumbnail_buffer((void *)data, length, out, width, "height", height, "size", size, "crop", crop,
                                     "export_profile", "srgb", "option_string", load_options, NULL);
    return vips.thumbnail_buffer((void *)data, length, out, width, "height", height, "size", size, "crop", crop,
                                 "option_string", load_options, NULL);
}

int dbvips_thumbnail_image(DbVipsImage *in, DbVipsImage **out, int width, int height, int size, int attention) {
    return vips.thumbnail_image(in, out, width, "height", height, "size", size, "crop",
                                attention ? DBVIPS_INTERESTING_ATTENTION : DBVIPS_INTERESTING_NONE, NULL);
}

int dbvips_webpsave(DbVipsImage *in, void **buffer, size_t *length, int quality) {
    return vips.webpsave_buffer(in, buffer, length, "Q", quality, "strip", 1, NULL);
}

int dbvips_pngsave(DbVipsImage *in, void **buffer, size_t *length) {
    return vips.pngsave_buffer(in, buffer, length, "strip", 1, "compression", 9, NULL);
}

int dbvips_jpegsave(DbVipsImage *in, void **buffer, size_t *length, int quality) {
    return vips.jpegsave_buffer(in, buffer, length, "Q", quality, "strip", 1, "optimize_coding", 1, "interlace", 1, NULL);
}

int dbvips_srgb8(DbVipsImage *in, DbVipsImage **out) {
    DbVipsImage *rgb = NULL, *flat = NULL;
    if (vips.colourspace(in, &rgb, DBVIPS_INTERPRETATION_SRGB, NULL)) return -1;
    if (vips.hasalpha(rgb)) {
        double white[3] = {255, 255, 255};
        void *background = vips.array_double_new(white, 3);
        int failed = vips.flatten(rgb, &flat, "background", background, NULL);
        vips.area_unref(background);
        vips.g_object_unref(rgb);
        if (failed) return -1;
    } else {
        flat = rgb;
    }
    int failed = vips.cast(flat, out, DBVIPS_FORMAT_UCHAR, NULL);
    vips.g_object_unref(flat);
    return failed;
}
