#!/usr/bin/env bash
# Installs the headers of the two C libraries the package links when the C
# compiler cannot find them: giflib's <gif_lib.h> (Debian/Ubuntu: libgif-dev;
# macOS: Homebrew's giflib), which the decoder runs, and libpng's <png.h>
# (libpng-dev; Homebrew's libpng), which the `gif` command writes PNGs with.
# Used by `make build`, `make demo`, `make test` and the other make targets.
# Each argument adds one more "header apt-package brew-formula": `make bench`
# adds liblz4's <lz4.h> (liblz4-dev; lz4), which only the benchmarks link.
set -euo pipefail

have_header() {
    echo "#include <$1>" | ${CC:-cc} ${CPPFLAGS:-} -E -x c - >/dev/null 2>&1
}

# Each missing header's package: "header apt-package brew-formula".
missing=()
for entry in "gif_lib.h libgif-dev giflib" "png.h libpng-dev libpng" "$@"; do
    read -r header apt brew <<<"$entry"
    have_header "$header" || missing+=("$header:$apt:$brew")
done
if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi

headers=() apt_packages=() brew_formulae=()
for entry in "${missing[@]}"; do
    IFS=: read -r header apt brew <<<"$entry"
    headers+=("$header")
    apt_packages+=("$apt")
    brew_formulae+=("$brew")
done

case "$(uname -s)" in
Darwin)
    if ! command -v brew >/dev/null; then
        echo "${headers[*]} missing and Homebrew is not installed: install ${brew_formulae[*]} by hand." >&2
        exit 1
    fi
    for formula in "${brew_formulae[@]}"; do
        brew list "$formula" >/dev/null 2>&1 || brew install "$formula"
    done
    ;;
*)
    "$(dirname "$0")/apt-install.sh" "${apt_packages[@]}" pkg-config
    ;;
esac

for header in "${headers[@]}"; do
    have_header "$header" || { echo "$header is still missing after the install." >&2; exit 1; }
done
