// The plain C program `gif dump FILE --format nia -o -` is measured against:
// giflib through the C baseline's decoder and compositor (cbaseline.c), and
// each composited canvas written to standard output as an NIA frame (BGRA,
// cumulative time in flicks) through one reused buffer, as a C programmer
// would write it. One thread. Usage: c-nia-emit FILE > out.nia
#include "cbaseline.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct emitter {
    uint8_t *buffer;
    size_t capacity;
    uint64_t flicks;
    int frames;
    int failed;
} emitter;

static void put32(uint8_t *out, uint32_t value) {
    out[0] = (uint8_t)value;
    out[1] = (uint8_t)(value >> 8);
    out[2] = (uint8_t)(value >> 16);
    out[3] = (uint8_t)(value >> 24);
}

static int write_all(const uint8_t *bytes, size_t count) {
    while (count > 0) {
        ssize_t n = write(STDOUT_FILENO, bytes, count);
        if (n < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        bytes += n;
        count -= (size_t)n;
    }
    return 0;
}

static void emit_frame(const uint8_t *canvas, int width, int height, int delay, void *context) {
    emitter *e = context;
    if (e->failed) return;
    size_t pixels = (size_t)width * height;
    size_t size = 24 + pixels * 4 + (pixels % 2) * 4;
    if (size > e->capacity) {
        free(e->buffer);
        e->buffer = malloc(size);
        e->capacity = e->buffer ? size : 0;
        if (!e->buffer) { e->failed = 1; return; }
    }
    uint8_t *out = e->buffer;
    if (e->frames == 0) {
        static const uint8_t header[8] = {0x6E, 0xC3, 0xAF, 0x41, 0xFF, 0x62, 0x6E, 0x34};
        uint8_t first[16];
        memcpy(first, header, 8);
        put32(first + 8, (uint32_t)width);
        put32(first + 12, (uint32_t)height);
        if (write_all(first, 16) != 0) { e->failed = 1; return; }
    }
    e->flicks += (uint64_t)delay * 7056000u;
    put32(out, (uint32_t)e->flicks);
    put32(out + 4, (uint32_t)(e->flicks >> 32));
    static const uint8_t magic[8] = {0x6E, 0xC3, 0xAF, 0x45, 0xFF, 0x62, 0x6E, 0x34};
    memcpy(out + 8, magic, 8);
    put32(out + 16, (uint32_t)width);
    put32(out + 20, (uint32_t)height);
    uint8_t *pixel = out + 24;
    for (size_t i = 0; i < pixels; i++) {
        pixel[i * 4] = canvas[i * 4 + 2];
        pixel[i * 4 + 1] = canvas[i * 4 + 1];
        pixel[i * 4 + 2] = canvas[i * 4];
        pixel[i * 4 + 3] = canvas[i * 4 + 3];
    }
    if (pixels % 2) memset(pixel + pixels * 4, 0, 4);
    if (write_all(out, size) != 0) e->failed = 1;
    e->frames++;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: c-nia-emit FILE\n");
        return 2;
    }
    FILE *file = fopen(argv[1], "rb");
    if (!file) {
        perror(argv[1]);
        return 1;
    }
    fseek(file, 0, SEEK_END);
    long length = ftell(file);
    fseek(file, 0, SEEK_SET);
    uint8_t *bytes = malloc(length > 0 ? (size_t)length : 1);
    size_t count = fread(bytes, 1, (size_t)length, file);
    fclose(file);

    // The canvas size is known once the first frame is drawn: the header
    // goes out with it.
    emitter e = {NULL, 0, 0, 0, 0};
    cb_timed_result result = cb_decode_timed(bytes, count, emit_frame, &e);
    uint8_t footer[8];
    put32(footer, (uint32_t)(e.frames <= 1 ? 0 : result.plays));
    put32(footer + 4, 0x80000000u);
    if (!e.failed && write_all(footer, 8) != 0) e.failed = 1;
    free(e.buffer);
    free(bytes);
    if (e.failed) {
        fprintf(stderr, "c-nia-emit: standard output: %s\n", strerror(errno));
        return 1;
    }
    return result.base.error ? 1 : 0;
}
