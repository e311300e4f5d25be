#!/usr/bin/env bash
# The example host's CPU and memory beside two X11 GIF players, each playing
# the same GIFs for SECONDS (30 by default) on an Xvfb server of its own,
# started the same way for each (1024x768, 24-bit), so that the server's
# share can be told apart:
#
#   GridHost   (release) the nine GIFs in a 3 × 3 grid of 200-pixel cells, one process
#   gifview -a (gifsicle) the same nine, one window each at their own size, one process
#   animate    (ImageMagick) the same nine, one process and window each (it plays one
#              sequence a window), summed
#   and each of the three with demo.gif alone.
#
#   scripts/example-figures.sh [SECONDS]
#
# CPU: user + system time over the wall time, per cent of one core, from
# /usr/bin/time around `timeout SECONDS` (so the start-up and the decoding are
# in); the server's from /proc. Peak RSS: the largest resident set of the
# process (summed over the processes of a row), and of the server.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-30}"

missing=()
echo '#include <X11/Xlib.h>' | ${CC:-cc} -E -x c - >/dev/null 2>&1 || missing+=(libx11-dev pkg-config)
command -v Xvfb >/dev/null || missing+=(xvfb)
command -v gifview >/dev/null || missing+=(gifsicle)
command -v animate >/dev/null || missing+=(imagemagick)
[ -x /usr/bin/time ] || missing+=(time)
scripts/apt-install.sh "${missing[@]}"

GIF_PACKAGE=library swift build -c release --package-path Examples/GridHost --disable-index-store >/dev/null
host=Examples/GridHost/.build/release/GridHost
# The first nine cells of the example's default grid (largest file first).
nine=(demo screen-recording palette-256 delays interlace first-frame-growth disposal-0 disposal-1 disposal-2)
nine=("${nine[@]/#/Fixtures/}")
nine=("${nine[@]/%/.gif}")
demo=(Fixtures/demo.gif)

tick=$(getconf CLK_TCK)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
server_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

# measure LABEL PLAYS COMMAND...: runs COMMAND for SECONDS; with "each" as
# COMMAND's first word, one process of the rest per file of the row.
measure() {
    local label="$1" plays="$2" files=("${!3}")
    shift 3
    coproc XVFB { exec Xvfb -displayfd 1 -screen 0 1024x768x24 -nolisten tcp 2>/dev/null; }
    local server=$XVFB_PID number
    read -r -t 20 number <&"${XVFB[0]}"
    local before
    before=$(server_ticks "$server")
    rm -f "$work"/run.*
    if [ "$1" = each ]; then
        shift
        local pids=()
        for file in "${files[@]}"; do
            DISPLAY=":$number" /usr/bin/time -f "%U %S %M" -o "$work/run.${#pids[@]}" \
                timeout "$seconds" "$@" "$file" >/dev/null 2>&1 &
            pids+=($!)
        done
        wait "${pids[@]}" || true
    else
        DISPLAY=":$number" /usr/bin/time -f "%U %S %M" -o "$work/run.0" \
            timeout "$seconds" "$@" "${files[@]}" >/dev/null 2>&1 || true
    fi
    local after server_peak
    after=$(server_ticks "$server")
    server_peak=$(awk '/VmHWM/ { print $2 }' "/proc/$server/status")
    kill "$server"
    wait "$server" 2>/dev/null || true
    cat "$work"/run.* | awk -v label="$label" -v plays="$plays" -v s="$seconds" -v t="$tick" \
        -v server="$((after - before))" -v speak="$server_peak" '
        !/^[0-9.]+ [0-9.]+ [0-9]+$/ { next }
        { cpu += $1 + $2; rss += $3; n++ }
        END { printf "| %s | %s | %d | %.1f | %.1f | %.1f | %.1f |\n", label, plays, n, 100 * cpu / s,
              100 * server / t / s, rss / 1024, speak / 1024 }'
}

echo "$seconds s each, $(nproc) cores, load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| program | plays | processes | CPU % of a core | Xvfb CPU % | peak RSS MiB | Xvfb peak RSS MiB |"
echo "|---|---|---:|---:|---:|---:|---:|"
none=()
measure "sleep" "nothing: the server alone" none[@] sleep "$seconds"
measure "GridHost (release)" "nine GIFs, 3 × 3 cells of 200 px" nine[@] "$host"
measure "gifview -a" "the nine, own sizes, nine windows" nine[@] gifview -a
measure "animate" "the nine, own sizes, nine windows" nine[@] each animate
measure "GridHost (release)" "demo.gif, one 200 px cell" demo[@] "$host"
measure "gifview -a" "demo.gif, 160 × 120" demo[@] gifview -a
measure "animate" "demo.gif, 160 × 120" demo[@] animate
