#!/usr/bin/env bash
# Builds the DocC reference (issue 17) with the toolchain's own `docc`, no
# package plugin: `swift package dump-symbol-graph` extracts each module's
# public symbols, then `docc convert` joins them with the module's catalog
# (Sources/<Module>/<Module>.docc, when there is one). Any DocC warning fails
# the build.
#
#   scripts/docs.sh             # -> .build/docs/<Module>.doccarchive
#   DOCS_DIR=/tmp/d scripts/docs.sh
#
# Open one with a static file server, for instance:
#   python3 -m http.server --directory .build/docs/Playback.doccarchive 8000
# then http://localhost:8000/documentation/playback
set -euo pipefail
cd "$(dirname "$0")/.."

out="${DOCS_DIR:-.build/docs}"
modules=(GIF Playback GIFPlayback)

swift package dump-symbol-graph --minimum-access-level public >/dev/null
graphs="$(dirname "$(swift build --show-bin-path)")/symbolgraph"

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
rm -rf "$out/.symbols"
