# The front door. `make report` runs the main job; `make test` runs every test.
# Each installs what it needs (tools/install_deps.sh) before it builds.

BUILD      ?= build
ASAN_BUILD ?= build-asan
TSAN_BUILD ?= build-tsan
JOBS       ?= $(shell nproc)
CMAKE_ARGS ?=
DATA       ?=
# The harness package (python/gauntlet/), run by Debian's interpreter (python3-onnx).
GAUNTLET   := PYTHONPATH=$(CURDIR)/python /usr/bin/python3 -m gauntlet

.PHONY: all build deps test test-unit test-asan test-tsan sweep hostile corpus-release report fuzz nightly fuzz-prune bench coverage clean

all: build

deps:
	@tools/install_deps.sh

$(BUILD)/build.ninja:
	cmake -S . -B $(BUILD) -G Ninja -DGAUNTLET_WERROR=$${CI:+ON} $(CMAKE_ARGS)

build: deps $(BUILD)/build.ninja
	cmake --build $(BUILD) -j $(JOBS)

# Every test through CTest, then the same suites under ASan+UBSan, then the unit suites
# under ThreadSanitizer (ImportOptions::threads). First the npm peer (ONNX Runtime) of the
# .ort conformance tests: where it cannot be installed (no registry) they skip, saying why.
# Timed checks (label perf) are benchmarks, not tests: `cd build && ctest -L perf` runs them.
# `ctest -L ossfuzz` builds the fuzzers as OSS-Fuzz does (ci/oss-fuzz/check_build.sh, about
# 10 minutes on 2 cores); ClusterFuzzLite's build of every push to main runs the same script.
test: build
	tools/install_peer.sh $(BUILD)/peer || echo "make test: the npm peer is not installed; the ONNX Runtime tests skip"
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) -LE "perf|ossfuzz"
	$(MAKE) test-asan
	$(MAKE) test-tsan

$(ASAN_BUILD)/build.ninja:
	cmake -S . -B $(ASAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DGAUNTLET_SANITIZE=address,undefined \
	  -DCMAKE_CXX_COMPILER=clang++ $(CMAKE_ARGS)

test-asan: deps $(ASAN_BUILD)/build.ninja
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --output-on-failure -j $(JOBS) -L asan

# The unit suites under ThreadSanitizer (which reports at exit and then fails the run).
$(TSAN_BUILD)/build.ninja:
	cmake -S . -B $(TSAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGAUNTLET_SANITIZE=thread $(CMAKE_ARGS)

test-tsan: deps $(TSAN_BUILD)/build.ninja
	cmake --build $(TSAN_BUILD) -j $(JOBS) --target unit_tests
	# Without address randomization where allowed (setarch -R; a container's seccomp may
	# refuse it): the ThreadSanitizer of GCC 12 can fail to start where the kernel places
	# mappings with more random bits than it expects ("unexpected memory mapping").
	TSAN_OPTIONS=halt_on_error=1 $$(setarch $$(uname -m) -R true 2>/dev/null && echo setarch $$(uname -m) -R) \
	  $(TSAN_BUILD)/bin/unit_tests --report_level=short

sweep: build
	BUILD=$(BUILD) $(GAUNTLET) sweep $(DATA)

# The hostile corpus: regenerate the committed hostile/corpus/, write the full
# corpus (2 GiB sparse files and the 10^6-node chain included) to $(BUILD)/hostile-corpus,
# and run the CLI over it with tools/run_corpus.sh.
hostile: build
	$(BUILD)/bin/hostile-gen --committed hostile/corpus
	$(BUILD)/bin/hostile-gen $(BUILD)/hostile-corpus
	tools/run_corpus.sh --with-options --quiet "$(BUILD)/bin/onnximport check" $(BUILD)/hostile-corpus

# The hostile corpus as a release for importer authors: a deterministic tarball
# of hostile/corpus/, docs/rules.md, tools/run_corpus.sh, a README and SHA256SUMS.
corpus-release:
	$(GAUNTLET) corpus --out $(BUILD)/release/onnx-gauntlet-hostile-corpus.tar.gz

# The main job: hostile corpus, sweep, .ort conformance, fuzz smoke of every
# target, cross-importer matrix; writes $(BUILD)/report/ (index.html, report.json,
# junit.xml, plots, screenshot) and ends with a one-line summary and the page's path.
FUZZ_SECONDS ?= 10
REPORT_ARGS  ?=
report: build
	$(GAUNTLET) report --build $(BUILD) --fuzz-seconds $(FUZZ_SECONDS) $(REPORT_ARGS)

# Performance side by side: a Release build with the libprotobuf and
# protozero peers and the CLI (timed as a whole process), models generated once into
# $(BUILD)/bench, results.json, results.md and perf.png there. BENCH_ARGS=--publish also
# copies the table and plot to docs/ (docs/performance.md links them).
BENCH_BUILD ?= build-bench
BENCH_ARGS  ?=
bench: deps
	@tools/install_deps.sh python3-matplotlib
	cmake -S . -B $(BENCH_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release -DGAUNTLET_BENCH=ON $(CMAKE_ARGS)
	cmake --build $(BENCH_BUILD) -j $(JOBS) --target gauntlet_bench onnximport_cli hostile-gen
	JOBS=$(JOBS) tools/setup_fuzz.sh  # the libFuzzer targets of the fuzz rows (python/gauntlet/bench/fuzz.py)
	$(GAUNTLET) bench --build $(BENCH_BUILD) --out $(BUILD)/bench $(BENCH_ARGS)

# Every target (each corpus/TARGET.options) for FUZZ_TIME seconds through the fuzz driver
# (python/gauntlet/fuzz/, docs/fuzzing.md): new coverage merged into corpus/TARGET/, findings
# triaged and filed under corpus/regression/, one record per target in corpus/campaigns.jsonl.
# FUZZ_TARGETS=a,b narrows the list.
FUZZ_TIME    ?= 60
FUZZ_JOBS    ?= 1
FUZZ_ENGINE  ?= libfuzzer
FUZZ_TARGETS ?=
fuzz: deps
	$(GAUNTLET) fuzz --seconds $(FUZZ_TIME) --jobs $(FUZZ_JOBS) --engine $(FUZZ_ENGINE) \
	  $(if $(FUZZ_TARGETS),--targets $(FUZZ_TARGETS))

# The nightly campaign (docs/fuzzing.md), what a team runs from cron: the same driver, HOURS of
# fuzzing shared by every target by coverage growth, JOBS processes per target (libFuzzer
# -fork, or AFL++ instances with ENGINE=afl), corpora merged, findings triaged and filed
# once under corpus/regression/, one record per target in corpus/campaigns.jsonl. Exit 1
# when a finding reproduces. TARGETS=fuzz_planted runs the planted crash of its tests.
HOURS        ?= 1
ENGINE       ?= libfuzzer
TARGETS      ?=
NIGHTLY_ARGS ?=
nightly: deps
	$(GAUNTLET) fuzz --hours $(HOURS) --jobs $(JOBS) --engine $(ENGINE) \
	  $(if $(TARGETS),--targets $(TARGETS)) $(NIGHTLY_ARGS)

# Each committed corpus cut to a coverage-preserving subset of itself (docs/fuzzing.md, "The committed
# corpora: minimized"): campaigns only add, this takes away what later inputs made redundant.
fuzz-prune: deps
	tools/setup_fuzz.sh
	$(GAUNTLET) fuzz-prune $(if $(FUZZ_TARGETS),--targets $(FUZZ_TARGETS))

# Source-based coverage of importer/ from the tests plus the corpora (build-fuzzcov/).
coverage: deps
	tools/coverage.sh

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(TSAN_BUILD) $(BENCH_BUILD) build-fuzz build-fuzzcov build-cov
