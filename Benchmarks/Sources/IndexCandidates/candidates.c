// The compact forms of a GIF's stored indices measured side by side with the
// library's IndexLZ: liblz4 per frame and per 64 KiB band, and each frame's
// indices against what the frames before it left at the same place, as runs
// (kept, copied, filled, literal) or as symbols compressed with liblz4.
//
// The index canvas the delta forms follow: one byte per place of the screen
// (grown to hold every frame), all 0 at the first frame, each frame's
// non-transparent indices written over it. Disposal is not followed: the
// approximation only costs compression, as every form reads back exactly
// the frame's own indices.
#include "indexcandidates.h"
#include "internal.h"

#include <lz4.h>
#include <stdlib.h>
#include <string.h>

/// The most bytes of one band, as IndexLZ's.
static const size_t band_bytes = 1 << 16;

static size_t rows_per_band(int width) {
    size_t rows = width > 0 ? band_bytes / (size_t)width : 1;
    return rows > 0 ? rows : 1;
}

// MARK: - Symbols against the index canvas

// A frame's index `x` at a place where the canvas holds `p`, as a symbol:
// 0 for the transparent index (the place keeps what it shows), 1 for `p`
// (the same index again), every other index the rank after those two. A
// frame with no transparent index has `p` alone at 0. Each maps 0...255 onto
// itself, so the symbols read back to exactly the frame's indices.
static inline uint8_t symbol_of(int x, int p, int t) {
    if (t < 0) return x == p ? 0 : (uint8_t)(x - (x > p) + 1);
    if (x == t) return 0;
    if (p == t) return (uint8_t)(x - (x > t) + 1);
    if (x == p) return 1;
    int lo = p < t ? p : t, hi = p < t ? t : p;
    return (uint8_t)(x - (x > lo) - (x > hi) + 2);
}

// symbol_of's inverse, in selects rather than branches: most literal
// symbols of a frame are new indices, whose branches a processor guesses
// no better than the indices themselves.
static inline uint8_t index_of(int s, int p, int t) {
    if (t < 0) {
        int v = s - 1;
        v += v >= p;
        return (uint8_t)(s == 0 ? p : v);
    }
    int one = p == t, lo = p < t ? p : t, hi = p < t ? t : p;
    int v = s - 2 + one;
    v += v >= lo;
    v += !one & (v >= hi);
    return (uint8_t)(s == 0 ? t : (s == 1 && !one ? p : v));
}

static uint8_t *canvas_row(const ic_gif *gif, uint8_t *canvas, const ic_frame *frame, int y) {
    return canvas + (size_t)(frame->top + y) * (size_t)gif->canvas_width + (size_t)frame->left;
}

/// `frame`'s symbols into `out`, the canvas moved on past the frame.
static void symbols(const ic_gif *gif, uint8_t *canvas, const ic_frame *frame, uint8_t *out) {
    const uint8_t *indices = gif->indices + frame->offset;
    int t = frame->transparent;
    for (int y = 0; y < frame->height; y++) {
        uint8_t *place = canvas_row(gif, canvas, frame, y);
        const uint8_t *row = indices + (size_t)y * (size_t)frame->width;
        uint8_t *to = out + (size_t)y * (size_t)frame->width;
        for (int x = 0; x < frame->width; x++) {
            to[x] = symbol_of(row[x], place[x], t);
            if (row[x] != t) place[x] = row[x];
        }
    }
}

/// A frame's symbols read back into `out` (its indices), the canvas moved
/// on: it keeps its index under a transparent one.
static void read_symbols(const ic_gif *gif, uint8_t *canvas, const ic_frame *frame, const uint8_t *symbols,
                         uint8_t *out) {
    int t = frame->transparent;
    for (int y = 0; y < frame->height; y++) {
        uint8_t *place = canvas_row(gif, canvas, frame, y);
        size_t start = (size_t)y * (size_t)frame->width;
        for (int x = 0; x < frame->width; x++) {
            uint8_t p = place[x], index = index_of(symbols[start + x], p, t);
            out[start + x] = index;
            place[x] = index == t ? p : index;
        }
    }
}

// MARK: - Delta runs

// A frame as runs against the index canvas, each a token byte: its high two
// bits the kind, its low six the length − 1 (63 continues with a LEB128
// count added). Kinds: literal indices (that many bytes follow); the
// transparent index (the place keeps what it shows); the canvas's own
// indices again; one index repeated (its byte follows). Reading back is
// copies and fills, and the canvas follows the literals and fills.
enum { RUN_LITERAL = 0x00, RUN_KEEP = 0x40, RUN_COPY = 0x80, RUN_FILL = 0xC0 };

static size_t put_token(uint8_t *out, uint8_t kind, size_t length) {
    size_t rest = length - 1, written = 1;
    out[0] = kind | (uint8_t)(rest < 63 ? rest : 63);
    if (rest < 63) return written;
    for (rest -= 63; rest >= 0x80; rest >>= 7) out[written++] = (uint8_t)(rest | 0x80);
    out[written++] = (uint8_t)rest;
    return written;
}

static size_t get_length(uint8_t token, const uint8_t *in, size_t *position) {
    size_t length = (size_t)(token & 63) + 1;
    if ((token & 63) < 63) return length;
    int shift = 0;
    uint8_t byte;
    do {
        byte = in[(*position)++];
        length += (size_t)(byte & 0x7F) << shift;
        shift += 7;
    } while (byte & 0x80);
    return length;
}

/// The worst case of a frame of `count` indices as runs.
static size_t runs_bound(size_t count) { return 2 * count + 16; }

/// `count` indices `x` where the canvas holds `p`, as runs: each place
/// starts the longest run of a kind there that is long enough to save
/// bytes, or joins the literals.
static size_t runs_encode(const uint8_t *x, const uint8_t *p, size_t count, int t, uint8_t *out) {
    size_t written = 0, literal = 0, i = 0;
    while (i < count) {
        size_t j = i + 1, shortest;
        uint8_t kind;
        if (x[i] == t) {
            while (j < count && x[j] == t) j++;
            kind = RUN_KEEP, shortest = 2;
        } else if (x[i] == p[i]) {
            while (j < count && x[j] == p[j] && x[j] != t) j++;
            kind = RUN_COPY, shortest = 3;
        } else {
            while (j < count && x[j] == x[i]) j++;
            kind = RUN_FILL, shortest = 4;
        }
        if (j - i < shortest) {
            i++;
            continue;
        }
        if (i > literal) {
            written += put_token(out + written, RUN_LITERAL, i - literal);
            memcpy(out + written, x + literal, i - literal);
            written += i - literal;
        }
        written += put_token(out + written, kind, j - i);
        if (kind == RUN_FILL) out[written++] = x[i];
        i = literal = j;
    }
    if (count > literal) {
        written += put_token(out + written, RUN_LITERAL, count - literal);
        memcpy(out + written, x + literal, count - literal);
        written += count - literal;
    }
    return written;
}

static void runs_decode(const ic_gif *gif, uint8_t *canvas, const ic_frame *frame, const uint8_t *in, size_t size,
                        uint8_t *out) {
    size_t k = 0, position = 0, width = (size_t)frame->width;
    int t = frame->transparent;
    while (k < size) {
        uint8_t token = in[k++], kind = token & 0xC0;
        size_t count = get_length(token, in, &k);
        const uint8_t *literals = in + k;
        uint8_t fill = 0;
        if (kind == RUN_LITERAL) k += count;
        if (kind == RUN_FILL) fill = in[k++];
        // The run a row at a time: the canvas's rows are the screen's.
        while (count > 0) {
            size_t y = position / width, x = position % width;
            size_t n = width - x < count ? width - x : count;
            uint8_t *place = canvas_row(gif, canvas, frame, (int)y) + x, *to = out + position;
            switch (kind) {
            case RUN_LITERAL:
                memcpy(to, literals, n);
                for (size_t i = 0; i < n; i++) place[i] = literals[i] == t ? place[i] : literals[i];
                literals += n;
                break;
            case RUN_KEEP: memset(to, t, n); break;
            case RUN_COPY: memcpy(to, place, n); break;
            default:
                memset(to, fill, n);
                if (fill != t) memset(place, fill, n);
                break;
            }
            position += n;
            count -= n;
        }
    }
}

/// What the canvas holds under `frame` into `out`.
static void canvas_under(const ic_gif *gif, uint8_t *canvas, const ic_frame *frame, uint8_t *out) {
    for (int y = 0; y < frame->height; y++) {
        memcpy(out + (size_t)y * (size_t)frame->width, canvas_row(gif, canvas, frame, y), (size_t)frame->width);
    }
}

/// The canvas moved on past `frame`, whose indices are `indices`.
static void follow(const ic_gif *gif, uint8_t *canvas, const ic_frame *frame, const uint8_t *indices) {
    for (int y = 0; y < frame->height; y++) {
        uint8_t *place = canvas_row(gif, canvas, frame, y);
        const uint8_t *row = indices + (size_t)y * (size_t)frame->width;
        for (int x = 0; x < frame->width; x++) place[x] = row[x] == frame->transparent ? place[x] : row[x];
    }
}

// MARK: - liblz4 per band

static size_t bands_bound(size_t count, int width) {
    size_t band = rows_per_band(width) * (size_t)width;
    if (band == 0) return 16;
    return (count / band + 1) * (4 + (size_t)LZ4_compressBound((int)band));
}

/// Each band a four-byte length (least significant first) and its block.
static size_t bands_encode(const uint8_t *from, size_t count, int width, uint8_t *out) {
    size_t band = rows_per_band(width) * (size_t)width, written = 0;
    for (size_t start = 0; start < count; start += band) {
        size_t n = count - start < band ? count - start : band;
        int block = LZ4_compress_default((const char *)from + start, (char *)out + written + 4, (int)n,
                                         LZ4_compressBound((int)n));
        for (int shift = 0; shift < 4; shift++) out[written + shift] = (uint8_t)((unsigned)block >> (8 * shift));
        written += 4 + (size_t)block;
    }
    return written;
}

static void bands_decode(const uint8_t *in, size_t size, uint8_t *out, size_t count, int width) {
    size_t band = rows_per_band(width) * (size_t)width, k = 0;
    for (size_t start = 0; start < count && k + 4 <= size; start += band) {
        size_t n = count - start < band ? count - start : band;
        int block = in[k] | in[k + 1] << 8 | in[k + 2] << 16 | in[k + 3] << 24;
        LZ4_decompress_safe((const char *)in + k + 4, (char *)out + start, block, (int)n);
        k += 4 + (size_t)block;
    }
}

// MARK: - The store

typedef struct ic_stored {
    uint8_t *data;
    size_t size;
    int raw;
} ic_stored;

struct ic_store {
    ic_codec codec;
    int count;
    ic_stored *frames;
    size_t bytes;
    int raw_frames;
    /// The reader's own: the row buffer, the delta forms' index canvas and
    /// their symbols.
    uint8_t *out, *canvas, *symbols;
};

static size_t canvas_bytes(const ic_gif *gif) { return (size_t)gif->canvas_width * (size_t)gif->canvas_height + 1; }

ic_store *ic_encode(const ic_gif *gif, ic_codec codec) {
    ic_store *store = calloc(1, sizeof *store);
    store->codec = codec;
    store->count = gif->count;
    store->frames = calloc((size_t)gif->count, sizeof *store->frames);
    store->out = malloc(gif->largest + 1);
    store->symbols = malloc(gif->largest + 1);
    store->canvas = calloc(canvas_bytes(gif), 1);
    size_t capacity = 16;
    for (int i = 0; i < gif->count; i++) {
        size_t count = (size_t)gif->frames[i].width * (size_t)gif->frames[i].height;
        size_t bound = runs_bound(count) > bands_bound(count, gif->frames[i].width)
                           ? runs_bound(count) : bands_bound(count, gif->frames[i].width);
        if (bound > capacity) capacity = bound;
    }
    uint8_t *scratch = malloc(capacity);
    for (int i = 0; i < gif->count; i++) {
        const ic_frame *frame = &gif->frames[i];
        const uint8_t *indices = gif->indices + frame->offset;
        size_t count = (size_t)frame->width * (size_t)frame->height, size = 0;
        if (count > 0) {
            switch (codec) {
            case IC_LZ4_FRAME:
                size = (size_t)LZ4_compress_default((const char *)indices, (char *)scratch, (int)count,
                                                    (int)capacity);
                break;
            case IC_LZ4_BAND: size = bands_encode(indices, count, frame->width, scratch); break;
            case IC_DELTA_RUNS:
                canvas_under(gif, store->canvas, frame, store->symbols);
                size = runs_encode(indices, store->symbols, count, frame->transparent, scratch);
                follow(gif, store->canvas, frame, indices);
                break;
            default:
                symbols(gif, store->canvas, frame, store->symbols);
                size = bands_encode(store->symbols, count, frame->width, scratch);
                break;
            }
        }
        ic_stored *stored = &store->frames[i];
        stored->raw = count == 0 || size == 0 || size > count / 8 * 7;
        stored->size = stored->raw ? count : size;
        stored->data = malloc(stored->size + 1);
        memcpy(stored->data, stored->raw ? indices : scratch, stored->size);
        store->bytes += stored->size;
        store->raw_frames += stored->raw;
    }
    free(scratch);
    return store;
}

void ic_store_free(ic_store *store) {
    if (store == NULL) return;
    for (int i = 0; i < store->count; i++) free(store->frames[i].data);
    free(store->frames);
    free(store->out);
    free(store->canvas);
    free(store->symbols);
    free(store);
}

size_t ic_store_bytes(const ic_store *store) { return store->bytes; }

int ic_store_raw_frames(const ic_store *store) { return store->raw_frames; }

long ic_decode(const ic_gif *gif, ic_store *store, int check) {
    int delta = store->codec == IC_DELTA_RUNS || store->codec == IC_DELTA_LZ4;
    if (delta) memset(store->canvas, 0, canvas_bytes(gif));
    long sum = 0;
    for (int i = 0; i < gif->count; i++) {
        const ic_frame *frame = &gif->frames[i];
        const ic_stored *stored = &store->frames[i];
        size_t count = (size_t)frame->width * (size_t)frame->height;
        if (count == 0) continue;
        uint8_t *out = store->out;
        if (stored->raw && delta) {
            memcpy(out, stored->data, count);
            follow(gif, store->canvas, frame, out);
        } else if (stored->raw) {
            memcpy(out, stored->data, count);
        } else {
            switch (store->codec) {
            case IC_LZ4_FRAME:
                LZ4_decompress_safe((const char *)stored->data, (char *)out, (int)stored->size, (int)count);
                break;
            case IC_LZ4_BAND: bands_decode(stored->data, stored->size, out, count, frame->width); break;
            case IC_DELTA_RUNS: runs_decode(gif, store->canvas, frame, stored->data, stored->size, out); break;
            default:
                bands_decode(stored->data, stored->size, store->symbols, count, frame->width);
                read_symbols(gif, store->canvas, frame, store->symbols, out);
                break;
            }
        }
        if (check && memcmp(out, gif->indices + frame->offset, count) != 0) return -1;
        sum += out[count / 2];
    }
    return sum;
}
