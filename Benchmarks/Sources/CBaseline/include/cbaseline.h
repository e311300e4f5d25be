#ifndef CBASELINE_H
#define CBASELINE_H

#include <stddef.h>
#include <stdint.h>

/// Called after each frame is drawn, with the whole RGBA8 canvas as shown.
typedef void (*cb_frame_callback)(const uint8_t *canvas, int width, int height, void *context);

/// What a whole-file decode did.
typedef struct cb_result {
    /// Frames drawn (a frame whose data failed part-way counts).
    int frames;
    /// giflib's error code, or 0 when the file decoded cleanly.
    int error;
    /// Canvas size after the first-frame growth rule.
    int width;
    int height;
} cb_result;

/// The plain-C baseline: giflib over the whole file from memory (DGifOpen with
/// a memory reader, DGifGetLine per row) and a straightforward RGBA compositor
/// with the browser rules of CONFORMANCE.md (canvas growth by the first frame,
/// local/global/no palette, transparency, interlace, disposal 2 and 3/4).
/// `callback` may be NULL.
cb_result cb_decode(const uint8_t *bytes, size_t count, cb_frame_callback callback, void *context);

#endif
