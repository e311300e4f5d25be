// The plain C program `gif dump FILE --format nia -o -` is measured against,
// written as a C programmer would: the file read into memory, giflib's
// DGifGetLine into one index row, each row composited onto a 32-bit canvas
// kept in NIA's B, G, R, A byte order (disposal 2 and 3, transparency,
// interlace, the first frame growing the canvas), and the whole canvas
// written with one fwrite per frame. Little-endian machines only.
// Build: cc -O3 -o CPlainDump main.c -lgif (BenchmarkReport --command does).
// Usage: CPlainDump FILE > out.nia
#include <gif_lib.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { const uint8_t *at, *end; } source;

static int read_source(GifFileType *gif, GifByteType *out, int wanted) {
    source *s = gif->UserData;
    size_t n = (size_t)(s->end - s->at) < (size_t)wanted ? (size_t)(s->end - s->at) : (size_t)wanted;
    memcpy(out, s->at, n);
    s->at += n;
    return (int)n;
}

static void put(uint64_t value, int bytes) { fwrite(&value, (size_t)bytes, 1, stdout); }

static const uint64_t header_magic = 0x346E62FF41AFC36EULL, frame_magic = 0x346E62FF45AFC36EULL;

int main(int argc, char **argv) {
    if (argc != 2) return fprintf(stderr, "usage: CPlainDump FILE > out.nia\n"), 2;
    FILE *file = fopen(argv[1], "rb");
    if (!file) return perror(argv[1]), 1;
    fseek(file, 0, SEEK_END);
    long length = ftell(file);
    rewind(file);
    uint8_t *bytes = malloc((size_t)length + 1);
    source input = {bytes, bytes + fread(bytes, 1, (size_t)length, file)};
    fclose(file);
    int error = 0, status = 0;
    GifFileType *gif = DGifOpen(&input, read_source, &error);
    if (!gif) return fprintf(stderr, "%s: %s\n", argv[1], GifErrorString(error)), 1;
    int width = gif->SWidth, height = gif->SHeight, frames = 0, plays = 1, last_plays = 1;
    int disposal = 0, left = 0, top = 0, right = 0, bottom = 0;  // the previous frame's, clipped
    uint32_t *canvas = NULL, *saved = NULL, table[256];
    uint8_t line[65536];
    uint64_t flicks = 0;
    GraphicsControlBlock gcb = {0, false, 0, NO_TRANSPARENT_COLOR};
    GifRecordType type;
    while (DGifGetRecordType(gif, &type) == GIF_OK && type != TERMINATE_RECORD_TYPE) {
        if (type == EXTENSION_RECORD_TYPE) {
            int code;
            GifByteType *block;
            if (DGifGetExtension(gif, &code, &block) == GIF_ERROR) { status = 1; break; }
            if (code == GRAPHICS_EXT_FUNC_CODE && block && block[0] >= 4) DGifExtensionToGCB(block[0], block + 1, &gcb);
            int loop = code == APPLICATION_EXT_FUNC_CODE && block && block[0] == 11 &&
                       (!memcmp(block + 1, "NETSCAPE2.0", 11) || !memcmp(block + 1, "ANIMEXTS1.0", 11));
            while (block) {
                if (DGifGetExtensionNext(gif, &block) == GIF_ERROR) { status = 1; break; }
                if (loop && block && block[0] >= 3 && block[1] == 1) plays = (block[2] | block[3] << 8) ? (block[2] | block[3] << 8) + 1 : 0;
                loop = 0;
            }
            if (status) break;
            continue;
        }
        if (type != IMAGE_DESC_RECORD_TYPE) continue;
        if (DGifGetImageDesc(gif) == GIF_ERROR) { status = 1; break; }
        GifImageDesc d = gif->Image;
        if (!canvas) {
            if (d.Left + d.Width > width) width = d.Left + d.Width;
            if (d.Top + d.Height > height) height = d.Top + d.Height;
            canvas = calloc((size_t)width * height + 1, 4);
            saved = malloc(((size_t)width * height + 1) * 4);
            put(header_magic, 8), put((uint32_t)width, 4), put((uint32_t)height, 4);
        }
        size_t row = (size_t)width, span = (size_t)(right - left) * 4;
        for (int y = top; y < bottom; y++) {  // the previous frame's disposal
            if (disposal == DISPOSE_BACKGROUND) memset(canvas + y * row + left, 0, span);
            if (disposal == DISPOSE_PREVIOUS) memcpy(canvas + y * row + left, saved + y * row + left, span);
        }
        disposal = gcb.DisposalMode == 4 ? DISPOSE_PREVIOUS : gcb.DisposalMode > 4 ? DISPOSE_DO_NOT : gcb.DisposalMode;
        left = d.Left < width ? d.Left : width, right = d.Left + d.Width < width ? d.Left + d.Width : width;
        top = d.Top < height ? d.Top : height, bottom = d.Top + d.Height < height ? d.Top + d.Height : height;
        span = (size_t)(right - left) * 4;
        for (int y = top; y < bottom && disposal == DISPOSE_PREVIOUS; y++) memcpy(saved + y * row + left, canvas + y * row + left, span);
        ColorMapObject *map = d.ColorMap ? d.ColorMap : gif->SColorMap;
        int colors = map ? (map->ColorCount < 256 ? map->ColorCount : 256) : 0;
        for (int i = 0; i < 256; i++) table[i] = 0xFF000000u;
        for (int i = 0; i < colors; i++) table[i] |= (uint32_t)map->Colors[i].Red << 16 | (uint32_t)map->Colors[i].Green << 8 | map->Colors[i].Blue;
        int transparent = gcb.TransparentColor, passes = d.Interlace ? 4 : 1;
        static const int start[4] = {0, 4, 2, 1}, step[4] = {8, 8, 4, 2};
        for (int pass = 0; pass < passes && !status; pass++) {
            for (int y = d.Interlace ? start[pass] : 0; y < d.Height; y += d.Interlace ? step[pass] : 1) {
                if (DGifGetLine(gif, line, d.Width) == GIF_ERROR) { status = 1; break; }
                if (d.Top + y >= height) continue;
                uint32_t *out = canvas + (size_t)(d.Top + y) * width + left;
                for (int i = 0; i < right - left; i++) if (line[i] != transparent) out[i] = table[line[i]];
            }
        }
        if (d.Width == 0 || d.Height == 0) {  // giflib leaves an empty frame's data unread
            int size;
            GifByteType *block;
            if (DGifGetCode(gif, &size, &block) == GIF_ERROR) status = 1;
            while (!status && block) if (DGifGetCodeNext(gif, &block) == GIF_ERROR) status = 1;
        }
        flicks += (uint64_t)gcb.DelayTime * 7056000u;
        put(flicks, 8), put(frame_magic, 8), put((uint32_t)width, 4), put((uint32_t)height, 4);
        // An odd pixel count takes the canvas's spare pixel, always 0, as NIA's padding.
        fwrite(canvas, 4, (size_t)width * height + ((size_t)width * height & 1), stdout);
        frames++, last_plays = plays;
        gcb = (GraphicsControlBlock){0, false, 0, NO_TRANSPARENT_COLOR};
        if (status) break;
    }
    if (!canvas) put(header_magic, 8), put((uint32_t)width, 4), put((uint32_t)height, 4);
    put(frames <= 1 ? 0 : (uint32_t)last_plays, 4), put(0x80000000u, 4);
    DGifCloseFile(gif, &error);
    return fflush(stdout) != 0 || status;
}
