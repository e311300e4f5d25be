#!/usr/bin/env python3
"""Groups the allocations BenchmarkReport recorded by call stack.

    cd Benchmarks
    .build/release/BenchmarkReport --player-probe malloc-sites sample_big 3 > sites.txt
    scripts/malloc-sites.py sites.txt [DEPTH]

Reads the `site FILE+0xOFFSET ...` lines, names each frame with
llvm-symbolizer and swift-demangle (both ship with the Swift toolchain), drops
the interposer's own frames, and prints the most frequent stacks, DEPTH frames
each (default 8), innermost first.
"""
import collections
import json
import subprocess
import sys


def main():
    path = sys.argv[1]
    depth = int(sys.argv[2]) if len(sys.argv) > 2 else 8
    sites = [line.split()[1:] for line in open(path) if line.startswith("site ")]
    offsets = collections.defaultdict(set)
    for frames in sites:
        for frame in frames:
            library, offset = frame.rsplit("+", 1)
            offsets[library].add(offset)

    names = {}
    for library, wanted in offsets.items():
        wanted = sorted(wanted)
        output = subprocess.run(
            ["llvm-symbolizer", "--obj=" + library, "--no-inlines", "--functions=linkage", "--output-style=JSON"]
            + wanted, capture_output=True, text=True).stdout
        for offset, entry in zip(wanted, json.loads(output or "[]")):
            symbols = entry.get("Symbol") or [{}]
            names[(library, offset)] = symbols[0].get("FunctionName", "?")
    mangled = sorted(set(names.values()))
    demangled = subprocess.run(["swift-demangle", "--simplified"], input="\n".join(mangled),
                               capture_output=True, text=True).stdout.split("\n")
    readable = dict(zip(mangled, demangled))

    stacks = collections.Counter()
    for frames in sites:
        stack = []
        for frame in frames:
            library, offset = frame.rsplit("+", 1)
            name = readable.get(names.get((library, offset), "?"), "?")
            if "MallocInterposer" in library or "MallocSites" in name:
                continue
            stack.append(library.split("/")[-1] + ": " + name[:140])
        stacks[tuple(stack[:depth])] += 1
    print(f"{len(sites)} allocations recorded")
    for stack, count in stacks.most_common(20):
        print(count)
        print("    " + "\n    ".join(stack))


if __name__ == "__main__":
    main()
