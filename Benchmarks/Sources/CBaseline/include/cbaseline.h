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
/// with the browsers' rules (canvas growth by the first frame,
/// local/global/no palette, transparency, interlace, disposal 2 and 3/4).
/// `callback` may be NULL.
cb_result cb_decode(const uint8_t *bytes, size_t count, cb_frame_callback callback, void *context);

/// Called after each frame is drawn, with the canvas and the frame's delay in
/// centiseconds (as stored).
typedef void (*cb_timed_frame_callback)(const uint8_t *canvas, int width, int height, int delay, void *context);

/// What ``cb_decode_timed`` did, and the number of plays known when the last
/// frame was drawn (NIA's footer: 0 forever, stored N > 0 gives N + 1, no
/// loop extension gives 1).
typedef struct cb_timed_result {
    cb_result base;
    int plays;
} cb_timed_result;

/// ``cb_decode`` with each frame's delay, and the loop count from a
/// NETSCAPE2.0 or ANIMEXTS1.0 extension: what an NIA writer needs.
cb_timed_result cb_decode_timed(const uint8_t *bytes, size_t count, cb_timed_frame_callback callback, void *context);

/// Bytes in memory as giflib reads them: `DGifOpen(&reader, cb_read_memory, &error)`.
typedef struct cb_memory_reader {
    const uint8_t *bytes;
    size_t count;
    size_t position;
} cb_memory_reader;

struct GifFileType;
/// giflib's input function over the `cb_memory_reader` of `gif->UserData`.
int cb_read_memory(struct GifFileType *gif, unsigned char *buffer, int wanted);

#endif
