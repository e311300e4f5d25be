#!/usr/bin/env bash
# Counts the public declarations of the library's modules (Sources/GIF,
# Playback, GIFPlayback, Pixels): every line of their Swift files that
# starts, after indentation and attributes, with `public`, one line being
# one declaration (a type, an extension member, a case list is never
# public on its own). Lines marked `@_spi(...) public` count too: SPI is
# still declared `public`, and the bound of 600 holds for both together.
# With `--by-file`, the count of each file, largest first.
#
#   scripts/public-count.sh            # -> one number
#   scripts/public-count.sh --by-file
set -euo pipefail
cd "$(dirname "$0")/.."

lines() {
    grep -rE '^\s*(@[^ ]+\s+)*public\b' Sources/GIF Sources/Playback Sources/GIFPlayback Sources/Pixels \
        --include='*.swift' || true
}

if [ "${1:-}" = "--by-file" ]; then
    lines | cut -d: -f1 | sort | uniq -c | sort -rn
else
    lines | wc -l | tr -d ' '
fi
