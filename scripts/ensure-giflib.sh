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
    if ! command -v apt-get >/dev/null; then
        echo "giflib's headers (gif_lib.h) are missing and apt-get is not available: install giflib by hand." >&2
        exit 1
    fi
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    echo "Installing libgif-dev (giflib's headers) with apt-get…" >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq libgif-dev pkg-config >/dev/null
    ;;
esac

have_header || { echo "gif_lib.h is still missing after the install." >&2; exit 1; }
