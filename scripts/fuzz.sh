#!/usr/bin/env bash
# Runs the libFuzzer targets side by side: gif-fuzzer (Fuzz/GIFFuzzer, the
# decoder) with a seed corpus built from Fixtures/,
# Tests/GIFTests/FuzzRegressions/ and ../shared/corpus (read in place,
# copied into the git-ignored .fuzz-corpus/seeds), playback-fuzzer
# (Fuzz/PlaybackFuzzer, the Playback API over a frame source whose answers
# come from the input) with the scripts in Fuzz/PlaybackFuzzer/regressions/
# and a few generated ones, and draw-fuzzer (Fuzz/DrawFuzzer, the drawing
# contract over a case read from the input's header) with generated-GIF
# inputs and the fixtures behind a header. New inputs go to
# .fuzz-corpus/work (playback-work, draw-work), crashes to
# .fuzz-corpus/artifacts (prefixed playback- and draw-), the logs to
# .fuzz-corpus/logs. Exit status is non-zero when a target crashed; the last
# lines printed then say what failed and give the input in Base64
# (replay: base64 -d > unit; SWIFT_BACKTRACE=enable=no .build-fuzz/draw-fuzzer unit).
#
# SECONDS (default 900) is processor time on the two cores the run is
# sized for: one target runs for SECONDS, two or three run side by side for
# SECONDS / 2 each, so the run's wall time is SECONDS / 2 whichever targets
# it has. Three targets share the two cores, about SECONDS / 3 of processor
# time each: the smoke run's phase in `make test` keeps its 20 s, where
# splitting 40 s three ways would leave each target 13 s of wall time and
# two thirds of a core.
#
#   scripts/fuzz.sh 900                         # what `make fuzz` runs: 450 s, all three targets
#   FUZZ_FLAGS=-seed=1 scripts/fuzz.sh 40       # the smoke run in `make test`
#   FUZZ_TARGETS=draw scripts/fuzz.sh 600       # one target only (gif, playback, draw)
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-900}"
# A crash is libFuzzer's and AddressSanitizer's to report: Swift's own
# backtracer, started inside a sanitized process, was seen to hang there
# instead of letting the run end.
export SWIFT_BACKTRACE=enable=no
corpus=.fuzz-corpus
shared=../shared/corpus
build="${FUZZ_BUILD_DIR:-.build-fuzz}"

scripts/build-fuzzer.sh

mkdir -p "$corpus/seeds" "$corpus/work" "$corpus/artifacts" "$corpus/logs"
# Seeds: every fixture and regression input, and every corpus file except
# licences and checksum lists. Names are flattened, so files never collide.
copy_seeds() {
    local from="$1" prefix="$2"
    [ -d "$from" ] || return 0
    find "$from" -type f ! -name 'LICENSE*' ! -name COPYING ! -name '*.txt' ! -name '*.md' -print0 |
        while IFS= read -r -d '' file; do
            cp "$file" "$corpus/seeds/$prefix-$(echo "${file#"$from"/}" | tr '/:,' '___')"
        done
}
copy_seeds Fixtures fixtures
copy_seeds Tests/GIFTests/FuzzRegressions regressions
copy_seeds "$shared" corpus
echo "fuzz: $(ls "$corpus/seeds" | wc -l) seed files, $(ls "$corpus/work" | wc -l) inputs kept from earlier runs" >&2

targets=(${FUZZ_TARGETS:-gif playback draw})
# Wall time per target: see the top of this file.
share=$(( ${#targets[@]} > 1 ? seconds / 2 : seconds ))
[ "$share" -ge 1 ] || share=1

# The playback fuzzer reads a script of operations: a few seeds that touch
# every operation, plus the regression inputs.
mkdir -p "$corpus/playback-seeds" "$corpus/playback-work"
printf '\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d' > "$corpus/playback-seeds/every-operation"
printf '\x0a\xff\x05\x05\x07\x07\x00\x04\x02\x05\x0b\x00\x0b\x03\x0c\x00\x0c\x03' > "$corpus/playback-seeds/hostile-source"
if [ -d Fuzz/PlaybackFuzzer/regressions ]; then
    find Fuzz/PlaybackFuzzer/regressions -type f ! -name '*.md' -exec cp {} "$corpus/playback-seeds/" \;
fi

# The draw fuzzer reads a 9-byte header (Fuzz/DrawFuzzer/main.swift), then
# a GIF or, with bit 1 of the first byte, a generated GIF's seed. Seeds:
# generated GIFs under a few cases (every branch, each branch alone, an odd
# stride, a display size, a step list with invalidations, decode-ahead),
# and each fixture behind one of four headers in turn.
mkdir -p "$corpus/draw-seeds" "$corpus/draw-work"
printf '\xf2\x00\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00' > "$corpus/draw-seeds/generated-all-branches"
printf '\xa7\x01\x00\x00\x00\x00\x00\x10\x00\x02\x00\x00\x00\x00\x00\x00\x00' > "$corpus/draw-seeds/generated-mirror-odd-stride"
printf '\xd2\x25\x03\x00\x00\x00\x00\x20\x00\x03\x00\x00\x00\x00\x00\x00\x00' > "$corpus/draw-seeds/generated-row-by-row-size"
printf '\x12\x03\x84\x2a\x3f\x1f\x81\x30\x00\x04\x00\x00\x00\x00\x00\x00\x00' > "$corpus/draw-seeds/generated-made-up-size"
printf '\xf3\x40\x00\x00\x00\x00\x00\x0f\x07\x00\x01\xff\x02\x01\xff\x05\x05\x00\x00\x00\x00\x00\x00\x00' > "$corpus/draw-seeds/generated-steps-decode-ahead"
draw_headers=('\xf0\x00\x00\x00\x00\x00\x00\x00\x00' '\xf4\x03\x00\x00\x00\x00\x00\x20\x00'
    '\xd1\x00\x02\x00\x00\x00\x00\x50\x00' '\x80\x25\x8a\x33\x17\x2f\x01\x10\x00')
n=0
for file in Fixtures/*.gif; do
    { printf "${draw_headers[n % 4]}"; cat "$file"; } > "$corpus/draw-seeds/fixture-$(basename "$file")"
    n=$((n + 1))
done

# One target: its log in $corpus/logs, the lines that matter on stderr.
run_target() {
    local target="$1" log="$2" binary dirs prefix max_len result
    case "$target" in
    gif) binary="$build/gif-fuzzer"; dirs=("$corpus/work" "$corpus/seeds"); prefix="$corpus/artifacts/"; max_len=65536 ;;
    # -detect_leaks=0: a FrameCache's background tasks finish after the
    # input returns (asynchronous teardown), which LeakSanitizer's per-input
    # check reports as a leak of their weak reference's side table.
    playback) binary="$build/playback-fuzzer -detect_leaks=0"; dirs=("$corpus/playback-work" "$corpus/playback-seeds"); prefix="$corpus/artifacts/playback-"; max_len=4096 ;;
    # 8 KiB: the header and any fixture whose loop the draw fuzzer checks.
    draw) binary="$build/draw-fuzzer"; dirs=("$corpus/draw-work" "$corpus/draw-seeds"); prefix="$corpus/artifacts/draw-"; max_len=8192 ;;
    *) echo "fuzz: unknown target $target (gif, playback, draw)" >&2; return 2 ;;
    esac
    echo "fuzz: $target for $share s" >&2
    set +e
    $binary -max_len="$max_len" -timeout=5 -rss_limit_mb=2048 -max_total_time="$share" \
        -print_final_stats=1 -artifact_prefix="$prefix" ${FUZZ_FLAGS:-} \
        "${dirs[@]}" 2>&1 | tee "$log" |
        grep -E '^(#[0-9]+.*(INITED|DONE|oom/timeout/crash)|stat::|==[0-9]+==|SUMMARY|artifact_prefix|Test unit written|Base64:|.*Fatal error:)' |
        sed "s/^/$target: /" >&2
    result="${PIPESTATUS[0]}"
    set -e
    echo "fuzz: $target log in $log" >&2
    return "$result"
}

# The targets run side by side, each for $share seconds.
pids=()
logs=()
for target in "${targets[@]}"; do
    logs+=("$corpus/logs/$target-fuzz-$(date +%Y%m%d-%H%M%S).log")
    run_target "$target" "${logs[-1]}" &
    pids+=("$!")
done
status=0
for i in "${!pids[@]}"; do
    result=0
    wait "${pids[$i]}" || result=$?
    [ "$result" -eq 0 ] && continue
    status=$result
    # Last, where a short tail of the output still shows it: what failed,
    # and the input itself (libFuzzer's Base64 line), to replay from anywhere.
    echo "fuzz: ${targets[$i]} failed ($result):" >&2
    grep -E 'Fatal error:|ERROR: libFuzzer|^SUMMARY|Test unit written|^Base64:' "${logs[$i]}" | cut -c1-6000 | sed 's/^/  /' >&2 || true
done
exit "$status"
