#ifndef INDEXCANDIDATES_INTERNAL_H
#define INDEXCANDIDATES_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

typedef struct ic_frame {
    int left, top, width, height;
    /// The frame's transparent index, or -1.
    int transparent;
    /// Where its indices start in `ic_gif.indices`.
    size_t offset;
} ic_frame;

struct ic_gif {
    int count;
    /// The screen grown to hold every frame whole.
    int canvas_width, canvas_height;
    ic_frame *frames;
    uint8_t *indices;
    size_t raw;
    /// The most indices of one frame.
    size_t largest;
};

#endif
