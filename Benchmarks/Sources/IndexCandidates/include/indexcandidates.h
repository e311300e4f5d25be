#ifndef INDEXCANDIDATES_H
#define INDEXCANDIDATES_H

#include <stddef.h>
#include <stdint.h>

/// Every frame's palette indices of one GIF, decoded by giflib (DGifSlurp,
/// rows in display order), with each frame's rectangle and transparent index.
typedef struct ic_gif ic_gif;

/// `bytes` decoded, or NULL when giflib cannot read them whole.
ic_gif *ic_load(const uint8_t *bytes, size_t count);
void ic_free(ic_gif *gif);
int ic_frame_count(const ic_gif *gif);
/// The bytes of every frame's raw indices: width × height each.
size_t ic_raw_bytes(const ic_gif *gif);

/// giflib's decode of every frame's indices (DGifGetLine into one reused
/// frame buffer, no compositing): what every read is divided by. Returns a
/// checksum of the indices, or -1 when giflib fails.
long ic_giflib_decode(const uint8_t *bytes, size_t count);

/// The compact forms measured side by side.
typedef enum ic_codec {
    /// liblz4's LZ4_compress_default on each frame's indices whole.
    IC_LZ4_FRAME,
    /// liblz4 per band of rows of at most 64 KiB, as IndexLZ bands them.
    IC_LZ4_BAND,
    /// Each frame against the index canvas (what the frames before it left
    /// at each place), run-coded: runs of the transparent index, of the
    /// canvas's own indices, of one index, and literals.
    IC_DELTA_RUNS,
    /// Each index as a symbol against the canvas's (0 transparent, 1 the
    /// same again, others ranked after), compressed with liblz4 per band.
    IC_DELTA_LZ4,
    IC_CODEC_COUNT
} ic_codec;

/// Every frame of a GIF in one compact form: each frame encoded, or kept
/// raw when its encoding takes more than 7/8 of its indices (as the
/// library's IndexLZ rule keeps them).
typedef struct ic_store ic_store;

/// Encodes every frame of `gif` in order (the delta forms follow an index
/// canvas frame by frame).
ic_store *ic_encode(const ic_gif *gif, ic_codec codec);
void ic_store_free(ic_store *store);
/// The bytes the store holds: the encoded frames and the raw ones.
size_t ic_store_bytes(const ic_store *store);
/// The frames kept raw.
int ic_store_raw_frames(const ic_store *store);

/// Reads every frame back in order into one frame-sized row buffer (the
/// delta forms also keep their index canvas), as a loop over the stored
/// frames does. Returns a checksum; with `check`, -1 when a frame does not
/// read back to giflib's indices.
long ic_decode(const ic_gif *gif, ic_store *store, int check);

#endif
