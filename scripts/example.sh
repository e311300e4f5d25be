#!/usr/bin/env bash
# The example host, Examples/GridHost (a grid of the fixtures in an X11
# window): installs what it needs when missing (Xlib's headers, and Xvfb
# when there is no display), builds it in debug and runs it.
#
#   scripts/example.sh [GridHost options]   # `make example`: on $DISPLAY, or for
#                                           # 10 s under Xvfb with a screenshot in out/
#   scripts/example.sh --test               # the `make test` phase: under Xvfb, the
#                                           # window checked against the library's frames
#
# When they cannot be installed (no apt-get, or the install fails), the test
# phase is skipped with a message saying so, and `make example` fails.
set -euo pipefail
cd "$(dirname "$0")/.."

testing=false
if [ "${1:-}" = "--test" ]; then testing=true; shift; fi
swift="${SWIFT:-swift}"

# What is missing: Xlib's headers to build, Xvfb to run without a display.
missing=()
echo '#include <X11/Xlib.h>' | ${CC:-cc} -E -x c - >/dev/null 2>&1 || missing+=(libx11-dev pkg-config)
if { $testing || [ -z "${DISPLAY:-}" ]; } && ! command -v Xvfb >/dev/null; then missing+=(xvfb); fi
if [ ${#missing[@]} -gt 0 ] && ! scripts/apt-install.sh "${missing[@]}"; then
    if $testing; then echo "example: SKIPPED: the window test needs ${missing[*]}, which could not be installed"; exit 0; fi
    exit 1
fi

# The library's modules alone (GIF_PACKAGE=library, see Package.swift), in
# debug without debug information or an index: the build is most of the
# test phase's time, and debug information alone took a quarter of its CPU.
package=Examples/GridHost
GIF_PACKAGE=library "$swift" build --package-path "$package" --disable-index-store -Xswiftc -gnone
host="$package/.build/debug/GridHost"

# Runs "$@" on a new Xvfb server (24-bit), which says its display number
# once it is ready.
xvfb_pid=""
trap '[ -z "$xvfb_pid" ] || kill "$xvfb_pid" 2>/dev/null || true' EXIT
on_xvfb() {
    coproc XVFB { exec Xvfb -displayfd 1 -screen 0 1024x768x24 -nolisten tcp 2>/dev/null; }
    xvfb_pid=$XVFB_PID
    local number
    read -r -t 20 number <&"${XVFB[0]}" || { echo "example: Xvfb did not start" >&2; return 1; }
    DISPLAY=":$number" "$@"
}

if $testing; then
    # A row scrolled every 300 ms (moving for the last 200 ms of each), and
    # the grid's clock stopped at four instants where it rests: 77 ms (the
    # first rows), 977 ms (rows 4 to 6), 1877 ms (the last rows) and 2177 ms
    # (the first rows again: the feed dropped their players while they were
    # far out of view, and new ones show the frames of the feed's epoch).
    # Each stop is 77 ms into a rest, so the cells that changed since the
    # last full redraw were put by their changed rectangles alone; and off
    # every 10 ms boundary, so no frame change falls on one.
    on_xvfb timeout 120 "$host" --flick 300 --check-at 77,977,1877,2177 --seconds 100
elif [ -n "${DISPLAY:-}" ]; then
    "$host" "$@"
else
    mkdir -p out
    echo "No DISPLAY: running the example for 10 s under Xvfb; its last picture goes to out/gridhost.ppm"
    on_xvfb "$host" --seconds 10 --screenshot out/gridhost.ppm "$@"
fi
