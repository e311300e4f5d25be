#!/usr/bin/env bash
# Builds the DocC reference for Pixels, GIF, Playback and GIFPlayback with the
# toolchain's own `docc`, no package plugin: `swift build` compiles the four
# library modules (nothing else), `swift-symbolgraph-extract` reads their
# public symbols from the built modules, and `docc convert` joins them with
# each module's catalog (Sources/<Module>/<Module>.docc, when there is one).
# Any DocC warning fails the build. It needs nothing built before it.
#
#   scripts/docs.sh             # -> .build/docs/<Module>.doccarchive
#   DOCS_DIR=/tmp/d scripts/docs.sh
#   DOCS_BUILD_FLAGS="--sanitize=address --scratch-path .build-asan" scripts/docs.sh
#       (reuses another build's modules: what `make test` does)
#
# Open one with a static file server, for instance:
#   python3 -m http.server --directory .build/docs/Playback.doccarchive 8000
# then http://localhost:8000/documentation/playback
set -euo pipefail
cd "$(dirname "$0")/.."

out="${DOCS_DIR:-.build/docs}"
modules=(Pixels GIF Playback GIFPlayback)
read -r -a build_flags <<<"${DOCS_BUILD_FLAGS:-}"

swift build "${build_flags[@]}" --target GIFPlayback >/dev/null
bin="$(swift build "${build_flags[@]}" --show-bin-path)"
triple="$(basename "$(dirname "$bin")")"
graphs="$out/.symbolgraph"
rm -rf "$graphs"
mkdir -p "$graphs"
for module in "${modules[@]}"; do
    swift-symbolgraph-extract -module-name "$module" -target "$triple" \
        -I "$bin/Modules" -I Sources/CGIFLib -I Sources/GIFKernels/include -I Sources/PixelKernels/include \
        -minimum-access-level public \
        -output-dir "$graphs"
done

mkdir -p "$out"
for module in "${modules[@]}"; do
    staged="$out/.symbols/$module"
    rm -rf "$staged" "$out/$module.doccarchive"
    mkdir -p "$staged"
    cp "$graphs/$module.symbols.json" "$staged/"
    # Extensions a module makes to another module's types, when there are any.
    find "$graphs" -maxdepth 1 -name "$module@*.symbols.json" -exec cp {} "$staged/" \;
    catalog=()
    [ -d "Sources/$module/$module.docc" ] && catalog=("Sources/$module/$module.docc")
    docc convert "${catalog[@]}" \
        --additional-symbol-graph-dir "$staged" \
        --output-path "$out/$module.doccarchive" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "org.swift-gif-engine.$module" \
        --transform-for-static-hosting \
        --warnings-as-errors
    echo "docs: $out/$module.doccarchive"
done
rm -rf "$out/.symbols" "$graphs"
