#!/usr/bin/env bash
# Writes Sources/GIFStaticLink/startup-order.txt: the symbols of every
# function that `gif dump FILE --format nia -o -` runs, one a line, which the
# Linux release link of `gif` places first in the executable's code
# (lld's --symbol-ordering-file, see Package.swift).
#
# Why: the kernel maps an executable's code 64 KiB around each page fault, so
# a dump's cost before its first pixel is about one fault per 64 KiB window of
# code it touches. Unordered, the Swift runtime, the standard library's
# functions and ours are spread over 11 MB, and a 1-frame dump touches some
# 70 windows; laid out together they take fewer.
#
# Run it after `make release` when the code or the toolchain changes (a name
# no longer in the executable is skipped at link time, so a stale list costs
# only the faults it no longer saves). Needs valgrind.
set -euo pipefail
cd "$(dirname "$0")/.."

binary=.build/release/gif
corpus=../shared/corpus
out=Sources/GIFStaticLink/startup-order.txt
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# Valgrind cannot read the DWARF 5 the toolchain writes: profile a copy
# without it (the symbol table stays).
strip -g -o "$scratch/gif" "$binary"

# A 1-frame file, an animation decoded in order and one decoded ahead on a
# second thread, from the fixtures and the corpus when it is there.
files=(Fixtures/demo.gif)
for name in go/video-001.gif blink/boston.gif pillow/chi.gif; do
    [[ -r "$corpus/$name" ]] && files+=("$corpus/$name")
done

for i in "${!files[@]}"; do
    valgrind --tool=callgrind --demangle=no --callgrind-out-file="$scratch/profile.$i" \
        "$scratch/gif" dump "${files[$i]}" --format nia -o - >/dev/null 2>&1
done

# Callgrind names a function at its first mention, as "fn=(N) name" or
# "cfn=(N) name", and by "(N)" alone after that; code without a symbol it
# names by its address, which is left out.
sed -nE 's/^c?fn=\([0-9]+\) (.+)$/\1/p' "$scratch"/profile.* | grep -v '^0x' | sort -u >"$out"
echo "$(wc -l <"$out") symbols in $out"
