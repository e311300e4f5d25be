// The C baseline every decode figure is divided by: giflib used the way a
// plain C program would use it, plus a straightforward compositor.
#include "cbaseline.h"

#include <gif_lib.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

int cb_read_memory(GifFileType *gif, GifByteType *buffer, int wanted) {
    cb_memory_reader *reader = (cb_memory_reader *)gif->UserData;
    size_t left = reader->count - reader->position;
    size_t n = (size_t)wanted < left ? (size_t)wanted : left;
    memcpy(buffer, reader->bytes + reader->position, n);
    reader->position += n;
    return (int)n;
}

typedef struct rect {
    int x, y, width, height;
} rect;

static int clamp(int value, int low, int high) {
    return value < low ? low : (value > high ? high : value);
}

static rect clip(int x, int y, int width, int height, int canvas_width, int canvas_height) {
    int left = clamp(x, 0, canvas_width), top = clamp(y, 0, canvas_height);
    int right = clamp(x + width, left, canvas_width), bottom = clamp(y + height, top, canvas_height);
    return (rect){left, top, right - left, bottom - top};
}

/// Stream row `r` of an interlaced frame of `height` rows: its row in the frame.
static int interlaced_row(int r, int height) {
    int pass1 = (height + 7) / 8, pass2 = (height + 3) / 8, pass3 = (height + 1) / 4;
    if (r < pass1) return r * 8;
    if (r < pass1 + pass2) return (r - pass1) * 8 + 4;
    if (r < pass1 + pass2 + pass3) return (r - pass1 - pass2) * 4 + 2;
    return (r - pass1 - pass2 - pass3) * 2 + 1;
}

static uint32_t rgba(uint8_t r, uint8_t g, uint8_t b, uint8_t a) {
    // Bytes in memory R, G, B, A on a little-endian machine.
    return (uint32_t)r | (uint32_t)g << 8 | (uint32_t)b << 16 | (uint32_t)a << 24;
}

static cb_result decode(const uint8_t *bytes, size_t count, cb_frame_callback callback,
                        cb_timed_frame_callback timed_callback, void *context, int *plays) {
    cb_result result = {0, 0, 0, 0};
    cb_memory_reader reader = {bytes, count, 0};
    int error = 0;
    GifFileType *gif = DGifOpen(&reader, cb_read_memory, &error);
    if (gif == NULL) {
        result.error = error ? error : -1;
        return result;
    }
    int width = gif->SWidth, height = gif->SHeight;
    uint32_t *canvas = NULL, *saved = NULL;
    GifPixelType *line = NULL;
    GraphicsControlBlock gcb = {DISPOSAL_UNSPECIFIED, false, 0, NO_TRANSPARENT_COLOR};
    rect previous = {0, 0, 0, 0};
    int previous_disposal = DISPOSAL_UNSPECIFIED;
    bool done = false;
    // The loop count known when the last frame was drawn (NIA's footer).
    int result_plays = plays != NULL ? *plays : 0;

    while (!done) {
        GifRecordType type;
        if (DGifGetRecordType(gif, &type) == GIF_ERROR) {
            // An unknown block byte ends the stream as a trailer would.
            if (gif->Error != D_GIF_ERR_WRONG_RECORD) result.error = gif->Error;
            break;
        }
        switch (type) {
        case EXTENSION_RECORD_TYPE: {
            int code;
            GifByteType *block = NULL;
            if (DGifGetExtension(gif, &code, &block) == GIF_ERROR) {
                result.error = gif->Error;
                done = true;
                break;
            }
            if (code == GRAPHICS_EXT_FUNC_CODE && block != NULL && block[0] >= 4) {
                DGifExtensionToGCB(block[0], block + 1, &gcb);
            }
            bool loop = plays != NULL && code == APPLICATION_EXT_FUNC_CODE && block != NULL && block[0] == 11 &&
                        (memcmp(block + 1, "NETSCAPE2.0", 11) == 0 || memcmp(block + 1, "ANIMEXTS1.0", 11) == 0);
            bool first = true;
            while (block != NULL) {
                if (DGifGetExtensionNext(gif, &block) == GIF_ERROR) {
                    result.error = gif->Error;
                    done = true;
                    break;
                }
                if (loop && first && block != NULL && block[0] >= 3 && block[1] == 1) {
                    int stored = block[2] | block[3] << 8;
                    *plays = stored == 0 ? 0 : stored + 1;
                }
                first = false;
            }
            break;
        }
        case IMAGE_DESC_RECORD_TYPE: {
            if (DGifGetImageDesc(gif) == GIF_ERROR) {
                result.error = gif->Error;
                done = true;
                break;
            }
            GifImageDesc *desc = &gif->Image;
            if (canvas == NULL) {
                // The first frame grows the canvas to the union with the screen.
                if (desc->Left + desc->Width > width) width = desc->Left + desc->Width;
                if (desc->Top + desc->Height > height) height = desc->Top + desc->Height;
                canvas = calloc((size_t)width * height + 1, 4);
                saved = malloc(((size_t)width * height + 1) * 4);
                line = malloc((size_t)(desc->Width > width ? desc->Width : width) + 1);
                result.width = width;
                result.height = height;
            } else {
                // Disposal of the frame before this one.
                if (previous_disposal == DISPOSE_BACKGROUND) {
                    for (int y = previous.y; y < previous.y + previous.height; y++) {
                        memset(canvas + (size_t)y * width + previous.x, 0, (size_t)previous.width * 4);
                    }
                } else if (previous_disposal == DISPOSE_PREVIOUS || previous_disposal == 4) {
                    for (int y = previous.y; y < previous.y + previous.height; y++) {
                        memcpy(canvas + (size_t)y * width + previous.x, saved + (size_t)y * width + previous.x,
                               (size_t)previous.width * 4);
                    }
                }
                line = realloc(line, (size_t)(desc->Width > width ? desc->Width : width) + 1);
            }
            ColorMapObject *map = desc->ColorMap != NULL ? desc->ColorMap : gif->SColorMap;
            uint32_t table[256];
            for (int i = 0; i < 256; i++) table[i] = rgba(0, 0, 0, 255);
            if (map != NULL) {
                int n = map->ColorCount < 256 ? map->ColorCount : 256;
                for (int i = 0; i < n; i++) {
                    table[i] = rgba(map->Colors[i].Red, map->Colors[i].Green, map->Colors[i].Blue, 255);
                }
            }
            int transparent = gcb.TransparentColor;
            int disposal = gcb.DisposalMode;
            rect area = clip(desc->Left, desc->Top, desc->Width, desc->Height, width, height);
            if (disposal == DISPOSE_PREVIOUS || disposal == 4) {
                for (int y = area.y; y < area.y + area.height; y++) {
                    memcpy(saved + (size_t)y * width + area.x, canvas + (size_t)y * width + area.x,
                           (size_t)area.width * 4);
                }
            }
            int frame_width = desc->Width, frame_height = desc->Height;
            if (frame_width > 0 && frame_height > 0) {
                for (int r = 0; r < frame_height; r++) {
                    if (DGifGetLine(gif, line, frame_width) == GIF_ERROR) {
                        result.error = gif->Error;
                        done = true;
                        if (r < frame_height - 1) break;
                    }
                    int y = desc->Interlace ? interlaced_row(r, frame_height) : r;
                    int canvas_y = desc->Top + y;
                    if (canvas_y >= height || desc->Left >= width) continue;
                    int n = width - desc->Left < frame_width ? width - desc->Left : frame_width;
                    uint32_t *out = canvas + (size_t)canvas_y * width + desc->Left;
                    for (int i = 0; i < n; i++) {
                        int index = line[i];
                        if (index != transparent) out[i] = table[index];
                    }
                    if (done) break;
                }
            } else {
                // giflib does not consume a zero-size frame's data for us.
                int code_size;
                GifByteType *block = NULL;
                if (DGifGetCode(gif, &code_size, &block) == GIF_ERROR) {
                    result.error = gif->Error;
                    done = true;
                }
                while (!done && block != NULL) {
                    if (DGifGetCodeNext(gif, &block) == GIF_ERROR) {
                        result.error = gif->Error;
                        done = true;
                    }
                }
            }
            result.frames++;
            if (callback != NULL) callback((const uint8_t *)canvas, width, height, context);
            if (timed_callback != NULL) timed_callback((const uint8_t *)canvas, width, height, gcb.DelayTime, context);
            if (plays != NULL) result_plays = *plays;
            previous = area;
            previous_disposal = disposal;
            gcb = (GraphicsControlBlock){DISPOSAL_UNSPECIFIED, false, 0, NO_TRANSPARENT_COLOR};
            break;
        }
        case TERMINATE_RECORD_TYPE:
        default:
            done = true;
            break;
        }
    }
    free(line);
    free(saved);
    free(canvas);
    DGifCloseFile(gif, &error);
    if (plays != NULL) *plays = result_plays;
    return result;
}

cb_result cb_decode(const uint8_t *bytes, size_t count, cb_frame_callback callback, void *context) {
    return decode(bytes, count, callback, NULL, context, NULL);
}

cb_timed_result cb_decode_timed(const uint8_t *bytes, size_t count, cb_timed_frame_callback callback, void *context) {
    int plays = 1;
    cb_result base = decode(bytes, count, NULL, callback, context, &plays);
    return (cb_timed_result){base, plays};
}
