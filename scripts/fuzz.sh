#!/usr/bin/env bash
# Runs the libFuzzer target for SECONDS (default 900) with a seed corpus built
# from Fixtures/, Tests/GIFTests/FuzzRegressions/ and ../shared/corpus (read in
# place, copied into the git-ignored .fuzz-corpus/seeds). New inputs go to
# .fuzz-corpus/work, crashes to .fuzz-corpus/artifacts, the log to
# .fuzz-corpus/logs. Exit status is libFuzzer's: non-zero on a crash.
#
#   scripts/fuzz.sh 900        # what `make fuzz` runs
#   scripts/fuzz.sh 60         # the smoke run in `make test`
#   FUZZ_JOBS=2 scripts/fuzz.sh 900
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-900}"
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

log="$corpus/logs/fuzz-$(date +%Y%m%d-%H%M%S).log"
set +e
"$build/gif-fuzzer" -max_len=65536 -timeout=5 -rss_limit_mb=2048 -max_total_time="$seconds" \
    -print_final_stats=1 -artifact_prefix="$corpus/artifacts/" ${FUZZ_FLAGS:-} \
    "$corpus/work" "$corpus/seeds" 2>&1 | tee "$log" |
    grep -E '^(#[0-9]+.*(INITED|DONE|oom/timeout/crash)|stat::|==[0-9]+==|SUMMARY|artifact_prefix|Test unit written)' >&2
status="${PIPESTATUS[0]}"
set -e
echo "fuzz: log in $log" >&2
exit "$status"
