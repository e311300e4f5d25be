// Every frame's palette indices of a GIF, from giflib: the input of the
// index candidates, and giflib's own decode of them, which every read is
// divided by.
#include "indexcandidates.h"
#include "internal.h"

#include "cbaseline.h"

#include <gif_lib.h>
#include <stdlib.h>
#include <string.h>

ic_gif *ic_load(const uint8_t *bytes, size_t count) {
    cb_memory_reader reader = {bytes, count, 0};
    int error = 0;
    GifFileType *gif = DGifOpen(&reader, cb_read_memory, &error);
    if (gif == NULL) return NULL;
    // DGifSlurp stores an interlaced frame's rows in display order.
    if (DGifSlurp(gif) == GIF_ERROR || gif->ImageCount < 1) {
        DGifCloseFile(gif, &error);
        return NULL;
    }
    ic_gif *result = calloc(1, sizeof *result);
    result->count = gif->ImageCount;
    result->frames = calloc((size_t)gif->ImageCount, sizeof *result->frames);
    result->canvas_width = gif->SWidth;
    result->canvas_height = gif->SHeight;
    size_t total = 0;
    for (int i = 0; i < gif->ImageCount; i++) {
        GifImageDesc *desc = &gif->SavedImages[i].ImageDesc;
        ic_frame *frame = &result->frames[i];
        frame->left = desc->Left;
        frame->top = desc->Top;
        frame->width = desc->Width;
        frame->height = desc->Height;
        frame->offset = total;
        GraphicsControlBlock gcb = {DISPOSAL_UNSPECIFIED, false, 0, NO_TRANSPARENT_COLOR};
        DGifSavedExtensionToGCB(gif, i, &gcb);
        frame->transparent = gcb.TransparentColor;
        size_t n = (size_t)desc->Width * (size_t)desc->Height;
        total += n;
        if (n > result->largest) result->largest = n;
        // The index canvas holds every frame whole, off the screen or not.
        if (desc->Left + desc->Width > result->canvas_width) result->canvas_width = desc->Left + desc->Width;
        if (desc->Top + desc->Height > result->canvas_height) result->canvas_height = desc->Top + desc->Height;
    }
    result->raw = total;
    result->indices = malloc(total + 1);
    for (int i = 0; i < gif->ImageCount; i++) {
        const ic_frame *frame = &result->frames[i];
        size_t n = (size_t)frame->width * (size_t)frame->height;
        if (n > 0) memcpy(result->indices + frame->offset, gif->SavedImages[i].RasterBits, n);
    }
    DGifCloseFile(gif, &error);
    return result;
}

void ic_free(ic_gif *gif) {
    if (gif == NULL) return;
    free(gif->indices);
    free(gif->frames);
    free(gif);
}

int ic_frame_count(const ic_gif *gif) { return gif->count; }

size_t ic_raw_bytes(const ic_gif *gif) { return gif->raw; }

long ic_giflib_decode(const uint8_t *bytes, size_t count) {
    cb_memory_reader reader = {bytes, count, 0};
    int error = 0;
    GifFileType *gif = DGifOpen(&reader, cb_read_memory, &error);
    if (gif == NULL) return -1;
    long sum = 0;
    uint8_t *buffer = NULL;
    size_t capacity = 0;
    for (;;) {
        GifRecordType type;
        if (DGifGetRecordType(gif, &type) == GIF_ERROR) break;
        if (type == EXTENSION_RECORD_TYPE) {
            int code;
            GifByteType *block = NULL;
            if (DGifGetExtension(gif, &code, &block) == GIF_ERROR) break;
            while (block != NULL) {
                if (DGifGetExtensionNext(gif, &block) == GIF_ERROR) break;
            }
        } else if (type == IMAGE_DESC_RECORD_TYPE) {
            if (DGifGetImageDesc(gif) == GIF_ERROR) break;
            size_t width = (size_t)gif->Image.Width, n = width * (size_t)gif->Image.Height;
            if (n > capacity) {
                free(buffer);
                capacity = n;
                buffer = malloc(capacity);
            }
            if (n == 0) {
                int code_size;
                GifByteType *block = NULL;
                if (DGifGetCode(gif, &code_size, &block) == GIF_ERROR) break;
                while (block != NULL && DGifGetCodeNext(gif, &block) != GIF_ERROR) {}
                continue;
            }
            // Rows in stream order: an interlaced frame's rows are only
            // reordered, which costs its compositor, not giflib.
            int failed = 0;
            for (int r = 0; r < gif->Image.Height && !failed; r++) {
                failed = DGifGetLine(gif, buffer + (size_t)r * width, (int)width) == GIF_ERROR;
            }
            if (failed) break;
            sum += buffer[n / 2];
        } else {
            break;
        }
    }
    free(buffer);
    DGifCloseFile(gif, &error);
    return sum;
}
