#!/usr/bin/env bash
# The test suite, phase by phase, with each phase's wall time printed at the
# end (also when a phase fails).
#
#   scripts/test.sh          # `make test`: sampled sweeps, a short fuzz run
#   scripts/test.sh long     # `make test-long`: every sweep in full, fuzzing for longer
#   SWEEP_SEED=123 scripts/test.sh   # replays the sweep sample of an earlier run
#
# Phases:
# - asan: one build of everything under AddressSanitizer, then every test in
#   it, in three processes: the decoder and command tests, the player tests,
#   the doc snippets. The player tests wait for events on other tasks, up to
#   60 s each here: Swift Testing starts every test of a process at once, so
#   a wait shares the cooperative pool (one thread per core) with the CPU
#   work of the whole phase, 30 to 40 s of it under AddressSanitizer on two
#   cores. The corpus sweeps and the snippets' decodes run in processes of
#   their own for the same reason.
# - tsan: under ThreadSanitizer (scripts/tsan-suppressions.txt says what is
#   suppressed and why), the player tests (`Playback`: the players, the
#   group driver, playlists, the budget) and the GIF frame source's and
#   drawers' (the decode-ahead's threads, draws beside trims), each in a
#   process of its own; in `make test-long` also the parallel decoder's.
#   The sample keeps `make test` within its ten minutes on a machine whose
#   builds are slow: its ThreadSanitizer build compiles the library and
#   those tests, not the decoder's tests.
# - fuzz: the three libFuzzer targets side by side, FUZZ_SECONDS of processor
#   time on two cores, FUZZ_SECONDS / 2 of wall time (40 in
#   `make test`, with seed 1, so CI repeats its mutations, built without
#   optimisation, which halves the build that is most of this phase; 600 in
#   test-long, built with -O).
# - docs: the DocC build from the modules the asan phase compiled; a DocC
#   warning fails it.
# - example window: the example host (Examples/GridHost, scripts/example.sh)
#   built in debug and run under Xvfb, its window read back at four instants
#   where its clock stops and compared pixel for pixel with the library's
#   frames; skipped, saying so, where Xvfb cannot be installed.
set -euo pipefail
cd "$(dirname "$0")/.."

mode="${1:-sample}"
swift="${SWIFT:-swift}"
export SWEEP_SEED="${SWEEP_SEED:-$(( $(date +%s) % 1000000 ))}"
case "$mode" in
sample) fuzz_seconds="${FUZZ_SECONDS:-40}"; fuzz_flags="${FUZZ_FLAGS:--seed=1}"; fuzz_optimization=-Onone
    threads=player-threads ;;
long) export GIF_TEST_FULL=1; fuzz_seconds="${FUZZ_SECONDS:-600}"; fuzz_flags="${FUZZ_FLAGS:-}"; fuzz_optimization=-O
    threads=threads ;;
*) echo "usage: scripts/test.sh [sample|long]" >&2; exit 2 ;;
esac
echo "test: SWEEP_SEED=$SWEEP_SEED ($([ "$mode" = long ] && echo 'every sweep in full' || echo '1/16 of each sweep'); replay with SWEEP_SEED=$SWEEP_SEED)"

started=$(date +%s)
report=()
phase() {  # phase NAME COMMAND...
    local name="$1" begin status
    shift
    echo "== $name: $*"
    begin=$(date +%s)
    set +e
    "$@"
    status=$?
    set -e
    report+=("$(printf '%-22s %4d s%s' "$name" $(( $(date +%s) - begin )) "$([ "$status" -eq 0 ] || echo "  FAILED ($status)")")")
    return "$status"
}
summary() {
    echo
    echo "== test phases (SWEEP_SEED=$SWEEP_SEED)"
    printf '%s\n' "${report[@]}"
    printf '%-22s %4d s\n' "total" $(( $(date +%s) - started ))
}
trap summary EXIT

# Line tables are all a sanitizer report needs (file and line of each
# frame); full debug information is about a quarter of a debug build's work.
asan=(--sanitize=address --scratch-path .build-asan -Xswiftc -gline-tables-only)
tsan=(--sanitize=thread --scratch-path .build-tsan -Xswiftc -gline-tables-only)
# The ThreadSanitizer phases build and run only the targets their tests need
# (Package.swift reads GIF_PACKAGE): not the command, its argument parser or
# the snippets, which no thread test runs; in the sample, not the decoder's
# tests either.
# A wait that is met ends at once; the limit only bounds a failing one.
waits=(env PLAYBACK_TEST_WAIT_SECONDS=60)
tsan_env=("${waits[@]}" GIF_PACKAGE="$threads")
player='^(PlaybackTests|GIFPlaybackTests)\.'
playback='^(PlaybackTests|GIFPlaybackTests|DocSnippetTests)\.'
# XCTest's runner leaks its suite objects at exit; LeakSanitizer stays on for the rest.
export LSAN_OPTIONS="suppressions=$PWD/scripts/lsan-suppressions.txt"
export TSAN_OPTIONS="suppressions=$PWD/scripts/tsan-suppressions.txt"

phase "asan build" "$swift" build --build-tests "${asan[@]}"
phase "asan decoder, command" "$swift" test --skip-build "${asan[@]}" --skip "$playback"
phase "asan player" "${waits[@]}" "$swift" test --skip-build "${asan[@]}" --filter "$player"
phase "asan snippets" "$swift" test --skip-build "${asan[@]}" --filter '^DocSnippetTests\.'
phase "tsan build" "${tsan_env[@]}" "$swift" build --build-tests "${tsan[@]}"
# Code under ThreadSanitizer runs 5 to 15 times slower: waits get 60 s.
phase "tsan player" "${tsan_env[@]}" "$swift" test --skip-build "${tsan[@]}" --filter '^PlaybackTests\.'
# Tests that check pixels and decode counts, not threads (the ASan run has
# them) are skipped here: the index tier's 600-frame loop (80 s alone under
# ThreadSanitizer), the damage walk, the display-mode redraws, the drawing
# player's recorded changes and reflection, and the drawing contract's
# harness, all on the calling thread alone.
phase "tsan GIF player" "${tsan_env[@]}" "$swift" test --skip-build "${tsan[@]}" --filter '^GIFPlaybackTests\.' \
    --skip 'GIFFrameSourceIndexTierTests|DamageTests|displayModesDrawWhatAFullRedrawMakes|recordedChangesDrawTheWholeFileDecode|aPlayerCanBeReflected|DrawingContractTests'
if [ "$mode" = long ]; then
    phase "tsan parallel decoder" "${tsan_env[@]}" "$swift" test --skip-build "${tsan[@]}" --filter '^GIFTests\.ParallelDecodeTests/'
fi
phase "fuzz" env FUZZ_FLAGS="$fuzz_flags" FUZZ_OPTIMIZATION="$fuzz_optimization" scripts/fuzz.sh "$fuzz_seconds"
phase "docs" env DOCS_BUILD_FLAGS="${asan[*]}" scripts/docs.sh
phase "example window" scripts/example.sh --test
