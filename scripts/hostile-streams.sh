#!/usr/bin/env bash
# Feeds `gif info -` streams that never end a block and prints, for each, the
# error it was refused with, its peak RSS and CPU time (/usr/bin/time -v);
# then the peak RSS of `gif info -` and `gif play -` (on a pseudo-terminal,
# script(1)) reading a 256 MB GIF from a pipe, against the input's size (the
# bytes are held once); then times a progressive source given a 30 MB first
# frame and 2,000 one-frame appends with the newest frame asked for after
# each (scripts/hostile-append.swift, compiled with -O against the sources;
# run it with any argument to leave the requests out).
#
#   swift build -c release --product gif && scripts/hostile-streams.sh
set -euo pipefail
cd "$(dirname "$0")/.."
gif="${GIF:-.build/release/gif}"
out="${HOSTILE_BUILD_DIR:-.build-hostile}"
mkdir -p "$out"

# A stream: the header bytes given in hex, then 255-byte sub-blocks forever.
endless() {
    python3 -c '
import sys
head = bytes.fromhex(sys.argv[1])
block = bytes([255]) + b"A" * 255
out = sys.stdout.buffer
try:
    out.write(head)
    chunk = block * 4096
    while True:
        out.write(chunk)
except BrokenPipeError:
    pass
' "$1"
}

screen1="47494638396101000100000000"  # GIF89a, 1 x 1, no palette
run() {  # run NAME HEXHEAD
    local log="$out/$1.time"
    endless "$2" | /usr/bin/time -v "$gif" info - > /dev/null 2> "$log" || true
    local error cpu rss
    error=$(grep '^gif:' "$log" | head -1)
    cpu=$(awk -F': ' '/User time/ {u=$2} /System time/ {s=$2} END {printf "%.2f", u + s}' "$log")
    rss=$(awk -F': ' '/Maximum resident/ {printf "%.0f", $2 / 1024}' "$log")
    printf '%-28s %6s CPU-s %6s MB  %s\n' "$1" "$cpu" "$rss" "$error"
}
run "65535x65535 screen" "474946383961ffffffff000000"
run "65535x65535 frame" "${screen1}2c00000000ffffffff0008"
run "canvas grown by frame 0" "${screen1}2c60ea60ea010001000008"
run "endless comment" "${screen1}21fe"
run "endless application data" "${screen1}21ff0b58595a5741424344312e30"
run "10x10 frame, endless data" "4749463839610a000a000000002c000000000a000a000008"

# A GIF of `frames` 10 x 10 frames, each 100 LZW literals followed by about
# 10 MB of sub-blocks that a decoder skips: large input, little to decode.
large() {
    python3 -c '
import sys
frames = int(sys.argv[1])
codes = [256] + [i % 256 for i in range(100)] + [257]
codes += [0] * (-len(codes) % 8)  # eight 9-bit codes fill nine bytes
packed = b"".join(
    sum(code << (9 * k) for k, code in enumerate(codes[at:at + 8])).to_bytes(9, "little")
    for at in range(0, len(codes), 8))
padding = (bytes([255]) + bytes(255)) * 40000
palette = bytes(range(256)) * 3
frame = bytes.fromhex("2c000000000a000a0087") + palette + bytes([8, len(packed)]) + packed + padding + bytes([0])
out = sys.stdout.buffer
out.write(bytes.fromhex("4749463839610a000a00000000"))
try:
    for _ in range(frames):
        out.write(frame)
    out.write(b"\x3b")
except BrokenPipeError:
    pass
' "$1"
}
large 25 > "$out/large.gif"
input=$(stat -c %s "$out/large.gif")
peak() {  # peak NAME LOG
    awk -F': ' -v name="$1" -v input="$input" '/User time/ {u=$2} /System time/ {s=$2} /Maximum resident/ {r=$2}
        END {printf "%-28s %6.2f CPU-s %6.0f MB  (input %.0f MB: %.2f x)\n", name, u + s, r / 1024, input / 1e6, r * 1024 / input}' "$2"
}
cat "$out/large.gif" | /usr/bin/time -v "$gif" info - > /dev/null 2> "$out/large-info.time"
peak "gif info - (large GIF)" "$out/large-info.time"
# gif play - does not return after the last frame of a stream it has waited
# on: it is stopped with SIGINT after 15 seconds, long after the input is in.
script -qec "cat '$out/large.gif' | /usr/bin/time -v -o '$out/large-play.time' timeout -s INT 15 '$gif' play - --width 40 --speed 100" /dev/null > /dev/null || true
peak "gif play - (large GIF)" "$out/large-play.time"

flags=(-O -wmo -parse-as-library -swift-version 6 -package-name swift_gif_engine -I Sources/CGIFLib -I Sources/GIFKernels/include -I "$out")
"${CLANG:-clang}" -O2 -I Sources/GIFKernels/include -c Sources/GIFKernels/kernels.c -o "$out/kernels.o"
ar rcs "$out/libGIFKernels.a" "$out/kernels.o"
for module in EngineSupport Pixels GIF Playback GIFPlayback; do
    swiftc "${flags[@]}" -module-name "$module" -emit-library -static -emit-module \
        -emit-module-path "$out/$module.swiftmodule" -o "$out/lib$module.a" $(find "Sources/$module" -name '*.swift' | sort)
done
swiftc "${flags[@]}" -module-name HostileAppend scripts/hostile-append.swift \
    -L "$out" -lGIFPlayback -lGIF -lPlayback -lPixels -lEngineSupport -lGIFKernels -lgif -o "$out/hostile-append"
/usr/bin/time -v "$out/hostile-append" 2> "$out/append.time"
awk -F': ' '/User time/ {u=$2} /System time/ {s=$2} /Maximum resident/ {r=$2}
    END {printf "30 MB frame + 2,000 appends: %.2f CPU-s, %.0f MB\n", u + s, r / 1024}' "$out/append.time"
