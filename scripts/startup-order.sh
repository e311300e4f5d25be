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
# The data a dump writes or reads in the executable's writable segments
# (.data, .bss, the Swift runtime's caches and glibc's tunables: each
# object in a section of its own in the runtime's and glibc's archives)
# follows, written objects first: a written page is a fault of its own,
# and .bss pages are faulted one at a time even when only read, so objects
# touched at start-up packed together take fewer pages. Last, glibc's
# ifunc resolvers, which a static executable runs all of before main and
# which valgrind does not report under their names.
#
# Run it after `make release` when the code or the toolchain changes (a name
# no longer in the executable is skipped at link time, so a stale list costs
# only the faults it no longer saves). Needs valgrind and python3.
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

# The data objects: lackey's trace of every load and store, filtered to the
# writable LOAD segments and named by the symbol table, on the first two
# files (lackey is slow: a 1-frame dump and the fixture animation suffice).
# Then the ifunc resolvers, the targets of the IRELATIVE relocations.
nm -n "$scratch/gif" >"$scratch/symbols"
readelf -lW "$scratch/gif" | awk '$1 == "LOAD" && $7 ~ /W/ { print $3, $6 }' >"$scratch/segments"
readelf -rW "$scratch/gif" | awk '/R_X86_64_IRELATIVE/ { print $NF }' >"$scratch/resolvers"
for i in 0 1; do
    [[ -n "${files[$i]:-}" ]] || continue
    valgrind --tool=lackey --trace-mem=yes --log-fd=9 "$scratch/gif" dump "${files[$i]}" --format nia -o - \
        9>&1 >/dev/null 2>/dev/null | grep '^ [LSM] ' >"$scratch/trace.$i" || true
done
python3 - "$scratch" >>"$out" <<'PYTHON'
import bisect, glob, re, sys
scratch = sys.argv[1]
segments = []
for line in open(scratch + "/segments"):
    start, size = (int(field, 16) for field in line.split())
    segments.append((start, start + size))
def inside(address):
    return any(low <= address < high for low, high in segments)
data, code = [], {}
for line in open(scratch + "/symbols"):
    m = re.match(r"([0-9a-f]+) (\S) (.+)", line)
    if not m:
        continue
    address = int(m.group(1), 16)
    if m.group(2) in "dDbBvV" and inside(address):
        data.append((address, m.group(3)))
    elif m.group(2) in "tTi":
        code.setdefault(address, m.group(3))
data.sort()
starts = [address for address, _ in data]
written, read = {}, {}
for trace in sorted(glob.glob(scratch + "/trace.*")):
    for line in open(trace):
        address = int(line[3:].split(",")[0], 16)
        i = bisect.bisect_right(starts, address) - 1
        if i < 0 or not inside(address):
            continue
        (read if line[1] == "L" else written).setdefault(data[i][1], None)
for name in list(written) + [name for name in read if name not in written]:
    print(name)
for line in open(scratch + "/resolvers"):
    name = code.get(int(line, 16))
    if name:
        print(name)
PYTHON
echo "$(wc -l <"$out") symbols in $out"
