#!/usr/bin/env bash
# Installs giflib's headers (Debian/Ubuntu: libgif-dev; macOS: Homebrew's giflib)
# when <gif_lib.h> cannot be found. Used by `make demo` and `make test`.
set -euo pipefail

have_header() {
    echo '#include <gif_lib.h>' | ${CC:-cc} ${CPPFLAGS:-} -E -x c - >/dev/null 2>&1
}

if have_header; then
    exit 0
fi

case "$(uname -s)" in
Darwin)
    if ! command -v brew >/dev/null; then
        echo "giflib is missing and Homebrew is not installed: install giflib by hand." >&2
        exit 1
    fi
    brew list giflib >/dev/null 2>&1 || brew install giflib
    ;;
*)
    "$(dirname "$0")/apt-install.sh" libgif-dev pkg-config
    ;;
esac

have_header || { echo "gif_lib.h is still missing after the install." >&2; exit 1; }
