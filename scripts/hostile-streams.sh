#!/usr/bin/env bash
# Feeds `gif info -` streams that never end a block and prints, for each, the
# error it was refused with, its peak RSS and CPU time (/usr/bin/time -v);
# then times a progressive source given a 30 MB first frame and 2,000
# one-frame appends with the newest frame asked for after each
# (scripts/hostile-append.swift, compiled with -O against the sources; run
# it with any argument to leave the requests out).
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

flags=(-O -wmo -parse-as-library -swift-version 6 -package-name swift_gif_engine -I Sources/CGIFLib -I "$out")
for module in Pixels GIF Playback GIFPlayback; do
    link=()
    [ "$module" = GIFPlayback ] && link=(-L "$out" -lGIF -lPlayback -lPixels)
    swiftc "${flags[@]}" -module-name "$module" -emit-library -static -emit-module \
        -emit-module-path "$out/$module.swiftmodule" -o "$out/lib$module.a" $(find "Sources/$module" -name '*.swift' | sort)
done
swiftc "${flags[@]}" -module-name HostileAppend scripts/hostile-append.swift \
    -L "$out" -lGIFPlayback -lGIF -lPlayback -lPixels -lgif -o "$out/hostile-append"
/usr/bin/time -v "$out/hostile-append" 2> "$out/append.time"
awk -F': ' '/User time/ {u=$2} /System time/ {s=$2} /Maximum resident/ {r=$2}
    END {printf "30 MB frame + 2,000 appends: %.2f CPU-s, %.0f MB\n", u + s, r / 1024}' "$out/append.time"
