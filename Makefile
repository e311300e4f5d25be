# The two commands of the quick start are `make demo` and `make test`; each
# installs giflib's headers first when they are missing.

SWIFT ?= swift
DEMO_GIF ?= Fixtures/demo.gif
DEMO_OUT ?= out/demo-frames

.PHONY: demo test build release giflib fixtures clean bench fuzz docs snippets

giflib:
	@scripts/ensure-giflib.sh

build: giflib
	$(SWIFT) build --product gif

## The `gif` command as it is benchmarked (issue 15): release, and on Linux one
## static executable (Swift's runtime and giflib inside, no dynamic loader),
## which starts in half the time of a dynamically linked one: a 1-frame dump
## is 2.1 M instructions instead of 4.7 M.
ifeq ($(shell uname -s),Linux)
RELEASE_FLAGS ?= --static-swift-stdlib -Xswiftc -static-executable
endif
release: giflib
	$(SWIFT) build -c release $(RELEASE_FLAGS) --product gif

## Builds the `gif` command and runs it on the bundled demo fixture: its info,
## then every frame dumped as PPM.
demo: build
	@echo
	@echo "== gif info $(DEMO_GIF)"
	@$(SWIFT) run --skip-build gif info $(DEMO_GIF)
	@echo
	@echo "== gif dump $(DEMO_GIF) -o $(DEMO_OUT) --format ppm"
	@rm -rf $(DEMO_OUT)
	@$(SWIFT) run --skip-build gif dump $(DEMO_GIF) -o $(DEMO_OUT) --format ppm
	@echo "The frames are PPM files in $(CURDIR)/$(DEMO_OUT)/"

## The whole test suite (it compiles and runs every Swift snippet of the docs),
## in two processes: the decoder and command tests, whose corpus sweeps keep
## every thread of Swift's cooperative pool busy, apart from the playback
## tests that wait on tasks;
## then (issue 7) the decoder tests under AddressSanitizer, the player tests
## under ThreadSanitizer, each in its own build directory, a 60-second fuzz
## smoke run (30 s per fuzz target, seed 1, so that CI repeats the same
## mutations; `make fuzz` explores with a new seed each run), and the DocC
## build, which fails on any DocC warning (issue 17). LeakSanitizer stays on for our code; only
## XCTest's runner, which leaks its suite objects at exit, is suppressed.
test: giflib
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --skip '^(PlaybackTests|GIFPlaybackTests|DocSnippetTests)\.'
	$(SWIFT) test --skip-build --filter '^(PlaybackTests|GIFPlaybackTests|DocSnippetTests)\.'
	LSAN_OPTIONS=suppressions=$(CURDIR)/scripts/lsan-suppressions.txt \
		$(SWIFT) test --sanitize=address --scratch-path .build-asan --filter '^GIFTests\.' --skip 'IncrementalGIFTests'
	$(SWIFT) test --sanitize=thread --scratch-path .build-tsan --filter '^(PlaybackTests\.|GIFTests\.ParallelDecodeTests/)'
	FUZZ_FLAGS=-seed=1 scripts/fuzz.sh 60
	scripts/docs.sh

## The benchmarks: ordo-one's absolute figures for every workload,
## then the ratio table against the C baseline, measured in one run; the
## command section times the `make release` `gif` and a plain
## `swift build -c release` one (built in .build-plain) against the plain C
## program Benchmarks/CPlainDump/main.c, which the report compiles with cc.
## The benchmarks are their own package in Benchmarks/, with their own .build.
bench: giflib
	cd Benchmarks && $(SWIFT) package benchmark
	$(MAKE) release
	$(SWIFT) build -c release --product gif --scratch-path .build-plain
	cd Benchmarks && $(SWIFT) run -c release BenchmarkReport

## Fuzzing (issues 7 and 14): builds Fuzz/GIFFuzzer and Fuzz/PlaybackFuzzer
## with -sanitize=fuzzer,address and runs them for FUZZ_SECONDS in all, split
## evenly (GIF seeds from Fixtures/ and ../shared/corpus); inputs and crashes
## land in the git-ignored .fuzz-corpus/.
FUZZ_SECONDS ?= 900
fuzz: giflib
	scripts/fuzz.sh $(FUZZ_SECONDS)

## The DocC reference (issue 17) for GIF, Playback and GIFPlayback, built with
## the toolchain's docc; a DocC warning fails it. Archives in .build/docs/.
docs: giflib
	scripts/docs.sh

## Regenerates Tests/DocSnippetTests/Snippets.swift from the Swift blocks of the
## README and the DocC articles; the tests compile and run them.
snippets:
	scripts/snippets.py

## Regenerates Fixtures/ with giflib's encoder (deterministic output).
fixtures: giflib
	$(SWIFT) run GIFFixtureGenerator Fixtures

clean:
	rm -rf .build out
