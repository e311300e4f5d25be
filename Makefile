# The two commands of the quick start are `make demo` and `make test`; each
# installs giflib's and libpng's headers first when they are missing.

SWIFT ?= swift
DEMO_GIF ?= Fixtures/demo.gif
DEMO_OUT ?= out/demo-frames

.PHONY: demo test test-long build release libraries bench-libraries fixtures clean bench fuzz docs snippets example

libraries:
	@scripts/ensure-libraries.sh

## The benchmarks also link liblz4, for the index candidates' figures.
bench-libraries:
	@scripts/ensure-libraries.sh "lz4.h liblz4-dev lz4"

build: libraries
	$(SWIFT) build --product gif

## The `gif` command as it is benchmarked: release, and on Linux one
## static executable (Swift's runtime, giflib and libpng inside, no dynamic loader),
## which starts in half the time of a dynamically linked one: a 1-frame dump
## is 2.1 M instructions instead of 4.7 M.
ifeq ($(shell uname -s),Linux)
RELEASE_FLAGS ?= --static-swift-stdlib -Xswiftc -static-executable
endif
release: libraries
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

## The example host, Examples/GridHost (its own package): a grid of the
## fixtures in an X11 window, 200-pixel cells, the players drawing into the
## window's image, scrolled a row by a flick every EXAMPLE_FLICK ms (the arrow
## keys scroll too, q quits). Installs Xlib's headers, and Xvfb when there is
## no DISPLAY, with apt-get when they are missing (sudo when not root), builds
## it in debug and runs it: on $DISPLAY, or for 10 s under Xvfb with its last
## picture saved to out/gridhost.ppm.
EXAMPLE_FLICK ?= 2000
example: libraries
	scripts/example.sh --flick $(EXAMPLE_FLICK)

## The whole test suite in one build under AddressSanitizer (every test,
## sampled sweeps), the player tests and the GIF frame source's and
## drawers' under ThreadSanitizer (test-long adds the parallel decoder's),
## 20 seconds of the three fuzz targets side by side (the decoder, the
## Playback API, the drawing contract), the DocC build and the example
## host's window checked under Xvfb; each phase's time
## is printed at the end. The sweeps (damaged copies, 1-byte streaming) run a
## rotating sixteenth chosen by SWEEP_SEED, which the run prints:
## `make test SWEEP_SEED=N` replays a run exactly.
test: libraries
	SWEEP_SEED=$(SWEEP_SEED) scripts/test.sh

## Everything in full: every planned prefix and byte change of the corruption
## sweep, every file streamed 1 and 7 bytes at a time, every corpus file
## through the index tier and the premultiplied layout, and 10 minutes of
## fuzzing.
test-long: libraries
	SWEEP_SEED=$(SWEEP_SEED) scripts/test.sh long

## The benchmarks: ordo-one's absolute figures for every workload,
## then the ratio table against the C baseline, measured in one run; the
## command section times the `make release` `gif` and a plain
## `swift build -c release` one (built in .build-plain) against the plain C
## program Benchmarks/CPlainDump/main.c, which the report compiles with cc.
## The benchmarks are their own package in Benchmarks/, with their own .build.
bench: bench-libraries
	cd Benchmarks && $(SWIFT) package benchmark
	$(MAKE) release
	$(SWIFT) build -c release --product gif --scratch-path .build-plain
	cd Benchmarks && $(SWIFT) run -c release BenchmarkReport

## Fuzzing: builds Fuzz/GIFFuzzer, Fuzz/PlaybackFuzzer and Fuzz/DrawFuzzer
## with -sanitize=fuzzer,address and runs them side by side for
## FUZZ_SECONDS / 2 each, FUZZ_SECONDS of processor time on two cores
## (GIF seeds from Fixtures/ and ../shared/corpus, the draw fuzzer's from
## generated GIFs and Fixtures/); inputs and crashes land in the git-ignored
## .fuzz-corpus/.
FUZZ_SECONDS ?= 900
fuzz: libraries
	scripts/fuzz.sh $(FUZZ_SECONDS)

## The DocC reference for Pixels, GIF, Playback and GIFPlayback, built with
## the toolchain's docc; a DocC warning fails it. Archives in .build/docs/.
docs: libraries
	scripts/docs.sh

## Regenerates Tests/DocSnippetTests/Snippets.swift from the Swift blocks of the
## README and the DocC articles, which the tests compile and run, and
## DocCommentSnippets.swift from the doc comments' examples, which they compile.
snippets:
	scripts/snippets.py

## Regenerates Fixtures/ with giflib's encoder (deterministic output).
fixtures: libraries
	$(SWIFT) run GIFFixtureGenerator Fixtures

clean:
	rm -rf .build out
