#!/usr/bin/env bash
# Builds the libFuzzer targets with swiftc directly: Fuzz/GIFFuzzer,
# Fuzz/PlaybackFuzzer (the public Playback API over a frame source whose
# answers come from the input) and Fuzz/DrawFuzzer (the drawing contract's
# checker, Tests/DrawingContract, over a case read from the input). Each
# library module, and the checker, is compiled as its own static module
# with coverage and AddressSanitizer instrumentation, linked with each fuzz
# entry point, giflib and libFuzzer's main.
#
#   scripts/build-fuzzer.sh            # -> .build-fuzz/gif-fuzzer, playback-fuzzer, draw-fuzzer
#   FUZZ_BUILD_DIR=/tmp/f scripts/build-fuzzer.sh
#   FUZZ_OPTIMIZATION=-Onone scripts/build-fuzzer.sh   # half the build time
#
# Used by `make fuzz` and by the fuzz smoke run in `make test`.
set -euo pipefail
cd "$(dirname "$0")/.."

out="${FUZZ_BUILD_DIR:-.build-fuzz}"
swiftc="${SWIFTC:-swiftc}"
mkdir -p "$out"

# -O (FUZZ_OPTIMIZATION): the fuzzer should spend its time on inputs, not on
# debug-build overhead. The smoke run in `make test` builds with -Onone, in
# less than half the time (about 23 s against 53 s on 2 cores), for a run
# short enough that the build is most of it. -g keeps sanitizer reports symbolised.
flags=("${FUZZ_OPTIMIZATION:--O}" -g -use-ld=lld -swift-version 6 -sanitize=fuzzer,address -parse-as-library -wmo -package-name swift_gif_engine -I Sources/CGIFLib -I Sources/GIFKernels/include -I Sources/PixelKernels/include -I "$out")

module() {  # module NAME SOURCES...
    local name="$1"
    shift
    "$swiftc" "${flags[@]}" -module-name "$name" -emit-library -static \
        -emit-module -emit-module-path "$out/$name.swiftmodule" \
        -o "$out/lib$name.a" "$@"
}

# The C kernels (the decoder's, only called where the processor has
# AVX-512, and the box filter's) and the shared locks and threads first.
"${CLANG:-clang}" -O2 -g -fsanitize=address -I Sources/GIFKernels/include -c Sources/GIFKernels/kernels.c \
    -o "$out/kernels.o"
ar rcs "$out/libGIFKernels.a" "$out/kernels.o"
"${CLANG:-clang}" -O2 -g -fsanitize=address -I Sources/PixelKernels/include -c Sources/PixelKernels/box_filter.c \
    -o "$out/box_filter.o"
ar rcs "$out/libPixelKernels.a" "$out/box_filter.o"
module EngineSupport $(find Sources/EngineSupport -name '*.swift' | sort)
module Pixels $(find Sources/Pixels -name '*.swift' | sort)
# The sources sit in stage folders below each module.
# Whole-module builds use one core each: GIF and Playback, which do not
# depend on each other, compile side by side, and so do the two fuzzers.
module GIF $(find Sources/GIF -name '*.swift' | sort) &
gif=$!
module Playback $(find Sources/Playback -name '*.swift' | sort)
wait "$gif"
module GIFPlayback $(find Sources/GIFPlayback -name '*.swift' | sort)
# The drawing contract's checker, which the draw fuzzer drives, compiles
# beside the GIF fuzzer; then the playback and draw fuzzers side by side.
"$swiftc" "${flags[@]}" -module-name GIFFuzzer Fuzz/GIFFuzzer/main.swift Fuzz/Shared/FuzzLimits.swift \
    -L "$out" -lGIFPlayback -lGIF -lPlayback -lPixelKernels -lPixels -lEngineSupport -lGIFKernels -lgif -o "$out/gif-fuzzer" &
fuzzer=$!
module DrawingContract $(find Tests/DrawingContract -name '*.swift' | sort)
wait "$fuzzer"
"$swiftc" "${flags[@]}" -module-name PlaybackFuzzer Fuzz/PlaybackFuzzer/main.swift \
    -L "$out" -lPlayback -lPixelKernels -lPixels -lEngineSupport -o "$out/playback-fuzzer" &
fuzzer=$!
"$swiftc" "${flags[@]}" -module-name DrawFuzzer Fuzz/DrawFuzzer/main.swift Fuzz/Shared/FuzzLimits.swift \
    -L "$out" -lDrawingContract -lGIFPlayback -lGIF -lPlayback -lPixelKernels -lPixels -lEngineSupport -lGIFKernels -lgif \
    -o "$out/draw-fuzzer"
wait "$fuzzer"
echo "built $out/gif-fuzzer, $out/playback-fuzzer and $out/draw-fuzzer" >&2
