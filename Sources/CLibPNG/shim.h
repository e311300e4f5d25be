#ifndef CLIBPNG_SHIM_H
#define CLIBPNG_SHIM_H
#include <png.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

/* libpng reports an error by longjmp, which Swift cannot catch: these
   helpers set the jump target, so that an error comes back as a return
   value of -1 with libpng's message in `message`, and Swift frames are
   never jumped over. */

/* One PNG being written. */
typedef struct {
    png_structp png;
    png_infop info;
    char message[160];
} CLibPNGWriter;

static void clibpng_error(png_structp png, png_const_charp message) {
    CLibPNGWriter *writer = (CLibPNGWriter *)png_get_error_ptr(png);
    strncpy(writer->message, message ? message : "unknown libpng error", sizeof writer->message - 1);
    writer->message[sizeof writer->message - 1] = 0;
    png_longjmp(png, 1);
}

static void clibpng_ignore_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

static void clibpng_no_flush(png_structp png) {
    (void)png;
}

/* Frees what clibpng_begin made; a second call does nothing. */
static inline void clibpng_end_writing(CLibPNGWriter *writer) {
    if (writer->png) png_destroy_write_struct(&writer->png, &writer->info);
    writer->png = NULL;
    writer->info = NULL;
}

/* Starts a PNG of width x height 8-bit pixels, handing its bytes to `write`
   (which reads `context` with png_get_io_ptr), and writes its header. Rows
   given later are four bytes a pixel, red, green, blue, alpha; with
   `keep_alpha` 0 the fourth byte is dropped and the PNG is RGB.
   `zlib_level` is 0-9, `filters` a PNG_FILTER_ mask. */
static inline int clibpng_begin(CLibPNGWriter *writer, void *context, png_rw_ptr write, uint32_t width,
                                uint32_t height, int keep_alpha, int zlib_level, int filters) {
    writer->message[0] = 0;
    writer->info = NULL;
    writer->png = png_create_write_struct(PNG_LIBPNG_VER_STRING, writer, clibpng_error, clibpng_ignore_warning);
    if (!writer->png) {
        strcpy(writer->message, "libpng could not allocate its state");
        return -1;
    }
    if (setjmp(png_jmpbuf(writer->png))) return -1;
    writer->info = png_create_info_struct(writer->png);
    if (!writer->info) png_error(writer->png, "libpng could not allocate its state");
    png_set_write_fn(writer->png, context, write, clibpng_no_flush);
    png_set_compression_level(writer->png, zlib_level);
    png_set_filter(writer->png, PNG_FILTER_TYPE_BASE, filters);
    png_set_IHDR(writer->png, writer->info, width, height, 8,
                 keep_alpha ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
    png_write_info(writer->png, writer->info);
    if (!keep_alpha) png_set_filler(writer->png, 0, PNG_FILLER_AFTER);
    return 0;
}

/* Writes `count` rows, `bytes_per_row` apart from `rows`. */
static inline int clibpng_write_rows(CLibPNGWriter *writer, const uint8_t *rows, size_t bytes_per_row,
                                     uint32_t count) {
    if (setjmp(png_jmpbuf(writer->png))) return -1;
    for (uint32_t row = 0; row < count; row++) png_write_row(writer->png, rows + row * bytes_per_row);
    return 0;
}

/* Writes the end of the PNG (after every row). */
static inline int clibpng_finish(CLibPNGWriter *writer) {
    if (setjmp(png_jmpbuf(writer->png))) return -1;
    png_write_end(writer->png, NULL);
    return 0;
}

#endif
