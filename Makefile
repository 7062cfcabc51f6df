# gpmc — crash-consistency model checker for GPU persistent-memory programs.
#   make            build ./gpmc
#   make test       unit tests (cmocka), then end-to-end tests
#   make asan       the same tests under -fsanitize=address,undefined
#   make fuzz       libFuzzer over the parser and the whole pipeline
#   make run        the bundled suite under every model into results/gpmc.db,
#                   then the verdict matrix and results/report.html
#   make bench      benchmarks: gpmc against SPIN per state, scaling with
#                   threads, the 8-thread goal (bench/README.md; ~11 min)
#   make paper      the documents' claims against the timing model: the
#                   table in specs/timing.md and specs/paper/*.svg
#   make ptx        recompile the bundled CUDA files' committed .ptx (clang)
#   make deps       install missing build and test dependencies (Debian)
#   make V=1 ...    show the compiler's command lines
#   make install PREFIX=/usr/local

CC      ?= cc
BUILD   ?= build
OPT     ?= -O2
SAN     ?=
PREFIX  ?= /usr/local
CFLAGS  := -std=c11 -Wall -Wextra -Werror -g $(OPT) $(SAN) \
           -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -I. $(EXTRA_CFLAGS)
LDLIBS  := -lsqlite3 -lm -pthread
# What building and running need (graphviz draws the witnesses of the HTML
# report), and what only the tests need on top (chromium opens the HTML
# report in tests/e2e/report_html.sh; clang compiles the CUDA files of the
# tests (tests/e2e/cuda_*.sh, `make ptx`) and the CUDA that tests/e2e/fix_cuda.sh fixes; patch applies fix's
# diffs in fix_lin.sh; `make run` reads the bundled CUDA files' committed
# .ptx).
DEBS_RUN  := gcc make libsqlite3-dev graphviz
DEBS_TEST := libcmocka-dev sqlite3 python3 chromium clang patch parallel
V       ?= 0
Q       := $(if $(filter 1,$(V)),,@)

SUBSYS  := base litmus model model/abstract model/hw model/reduce timing store \
           checker results harness
SRCS    := $(foreach d,$(SUBSYS),$(wildcard $(d)/*.c))
MAIN    := harness/gpmc.c
LIBSRCS := $(filter-out $(MAIN),$(SRCS))
LIBOBJS := $(LIBSRCS:%.c=$(BUILD)/%.o)
TESTS   := $(patsubst tests/%.c,$(BUILD)/tests/%,$(wildcard tests/test_*.c))
HDRS    := $(foreach d,$(SUBSYS),$(wildcard $(d)/*.h)) $(wildcard tests/*.h)

.PHONY: all test unit e2e asan fuzz run bench paper ptx deps deps-run install \
        clean
.DEFAULT_GOAL := all

all: gpmc

# gpmc.cuh (the CUDA front end's header) goes beside every binary.
gpmc: $(BUILD)/gpmc
	$(Q)cp $< $@
	$(Q)cp litmus/gpmc.cuh gpmc.cuh

$(BUILD)/gpmc: $(BUILD)/harness/gpmc.o $(BUILD)/libgpmc.a litmus/gpmc.cuh
	$(if $(Q),@echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) -o $@ $(BUILD)/harness/gpmc.o $(BUILD)/libgpmc.a \
	  $(LDLIBS)
	$(Q)cp litmus/gpmc.cuh $(BUILD)/gpmc.cuh

$(BUILD)/libgpmc.a: $(LIBOBJS)
	$(Q)rm -f $@
	$(Q)ar rcs $@ $^

$(BUILD)/%.o: %.c $(HDRS)
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS) -c -o $@ $<

$(BUILD)/tests/%: tests/%.c $(BUILD)/libgpmc.a $(HDRS)
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS) -o $@ $< $(BUILD)/libgpmc.a -lcmocka $(LDLIBS)

# The fuzz targets, replayed over their seeds and regression inputs.
FUZZ_SRCS := tests/fuzz/fuzz_parse.c tests/fuzz/fuzz_check.c \
             tests/fuzz/fuzz_ptx.c
$(BUILD)/tests/test_fuzz_replay: tests/test_fuzz_replay.c $(FUZZ_SRCS) \
                                 tests/fuzz/fuzz.h $(BUILD)/libgpmc.a $(HDRS)
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS) -o $@ $< $(FUZZ_SRCS) $(BUILD)/libgpmc.a -lcmocka \
	  $(LDLIBS)

# A test's standard error (the error messages it provokes on purpose,
# cmocka's failures, sanitizer reports) goes to $(BUILD)/log/TEST.err, shown
# when the test fails.
unit: $(TESTS)
	@set -e; mkdir -p $(BUILD)/log; for t in $(TESTS); do echo "== $$t"; \
	  log=$(BUILD)/log/$${t##*/}.err; \
	  GPMC_CUH=litmus/gpmc.cuh $$t 2>$$log || { cat $$log >&2; exit 1; }; \
	done

e2e: $(BUILD)/gpmc
	@E2E_LOG=$(BUILD)/log GPMC=$(BUILD)/gpmc sh tests/e2e.sh

test: deps
	$(MAKE) unit
	$(MAKE) e2e

# A sanitizer report ends the process with its own status, so that no test
# can mistake undefined behaviour for "exit 1 = a failing check" (gcc's
# UBSan exits 1 by default); tests/e2e/lib.sh rejects it by name.
SAN_EXIT := 99
SAN_ENV := ASAN_OPTIONS=exitcode=$(SAN_EXIT) \
           UBSAN_OPTIONS=exitcode=$(SAN_EXIT):print_stacktrace=1 \
           GPMC_SAN_EXIT=$(SAN_EXIT)

# GPMC_DEBUG adds the invariant checks that cost O(n) per step (the hw
# region, the abstract pending set, the timing heap).
asan: deps
	$(SAN_ENV) $(MAKE) BUILD=build-asan OPT=-O1 EXTRA_CFLAGS=-DGPMC_DEBUG \
	  SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
	  unit e2e

# libFuzzer (clang from Debian): each target runs FUZZ_TIME seconds from
# tests/fuzz/seeds (fuzz_ptx: tests/fuzz/seeds-ptx, clang's PTX with a
# launch line first; the corpus it grows stays in build-fuzz/); a crash is
# written to build-fuzz/ and ends the run with an error. Add each as a
# regression input under tests/fuzz/regress (fuzz_ptx: regress-ptx),
# replayed by `make test`. FUZZ_TIMEOUT is libFuzzer's limit for one input
# (its default, 30 s, was met by a 0.5 s seed on a loaded machine):
# fuzz_check bounds its own work per input to FUZZ_INPUT_S seconds of
# explorations (tests/fuzz/fuzz_check.c), so only a hang passes
# FUZZ_TIMEOUT.
FUZZ_CC   ?= clang
FUZZ_TIME ?= 120
FUZZ_TIMEOUT ?= 300
FUZZ_INPUT_S ?= 10
FUZZ_SAN  := -fsanitize=address,undefined -fno-sanitize-recover=all \
             -fno-omit-frame-pointer
FUZZ_TARGETS := fuzz_parse fuzz_check fuzz_ptx

fuzz: deps
	$(MAKE) BUILD=build-fuzz CC=$(FUZZ_CC) OPT=-O1 \
	  EXTRA_CFLAGS=-Wno-missing-field-initializers \
	  SAN="$(FUZZ_SAN) -fsanitize=fuzzer-no-link" build-fuzz/libgpmc.a
	@set -e; for t in $(FUZZ_TARGETS); do \
	  $(FUZZ_CC) -std=c11 -g -O1 $(FUZZ_SAN) -fsanitize=fuzzer -I. \
	    -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -DFUZZ_TARGET=$$t \
	    -o build-fuzz/$$t tests/fuzz/entry.c $(FUZZ_SRCS) \
	    build-fuzz/libgpmc.a $(LDLIBS); \
	  mkdir -p build-fuzz/corpus-$$t; \
	  s=seeds; r=regress; d=litmus.dict; \
	  if [ $$t = fuzz_ptx ]; then s=seeds-ptx; r=regress-ptx; d=ptx.dict; fi; \
	  echo "== $$t for $(FUZZ_TIME) s"; \
	  $(SAN_ENV) GPMC_FUZZ_INPUT_S=$(FUZZ_INPUT_S) nice -n 10 \
	    build-fuzz/$$t -max_total_time=$(FUZZ_TIME) \
	    -timeout=$(FUZZ_TIMEOUT) -rss_limit_mb=2048 -max_len=8192 \
	    -print_final_stats=1 \
	    -dict=tests/fuzz/$$d \
	    -artifact_prefix=build-fuzz/$$t- build-fuzz/corpus-$$t \
	    tests/fuzz/$$s tests/fuzz/$$r; \
	done

# The suite's line per check goes to RUN_OUT/suite.log and the verdict
# matrix to RUN_OUT/verdicts.txt; the terminal gets the failing checks, the
# suite's summary, the matrix's summary line and the report's path. The
# target fails when the suite does (after printing all that).
# RUN_GPMC, RUN_SUITE and RUN_OUT let tests/e2e/make_run.sh run it on a
# corpus of its own.
RUN_GPMC  ?= ./gpmc
RUN_SUITE ?= litmus/suite
RUN_OUT   ?= results

run: deps-run $(RUN_GPMC)
	@mkdir -p $(RUN_OUT)
	@echo "checking $(RUN_SUITE) under every model into $(RUN_OUT)/gpmc.db" \
	  "(log: $(RUN_OUT)/suite.log)"
	@st=0; $(RUN_GPMC) suite $(RUN_SUITE) --model all --jobs 2 \
	  --db $(RUN_OUT)/gpmc.db >$(RUN_OUT)/suite.log || st=$$?; \
	sed -n '/^failed checks/,$$p' $(RUN_OUT)/suite.log; \
	tail -n 1 $(RUN_OUT)/suite.log; \
	$(RUN_GPMC) report verdicts --db $(RUN_OUT)/gpmc.db \
	  >$(RUN_OUT)/verdicts.txt || st=3; \
	echo "verdict matrix: $(RUN_OUT)/verdicts.txt ($$(tail -n 1 \
	  $(RUN_OUT)/verdicts.txt))"; \
	$(RUN_GPMC) report html --db $(RUN_OUT)/gpmc.db \
	  -o $(RUN_OUT)/report.html || st=3; \
	echo "HTML report: $(RUN_OUT)/report.html"; exit $$st

# The PTX committed beside the bundled .cu files (litmus/suite/cuda), which
# lets `make run` check them without clang: recompiled where stale (add
# PTX_FLAGS=-f to recompile all, after a clang upgrade).
ptx: gpmc
	@sh litmus/suite/mkptx.sh $(PTX_FLAGS) ./gpmc litmus/suite

bench: gpmc
	$(call install-missing,gnuplot-nox spin time)
	sh bench/run.sh
	sh bench/scale.sh
	sh bench/time.sh

paper: gpmc
	$(call install-missing,gnuplot-nox)
	sh bench/paper.sh

# install-missing PACKAGES: apt-get install those not installed, quietly.
define install-missing
	@missing=""; for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" -eq 0 ]; then SUDO=""; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq >/dev/null && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	fi
endef

deps-run:
	$(call install-missing,$(DEBS_RUN))

deps:
	$(call install-missing,$(DEBS_RUN) $(DEBS_TEST))

install: gpmc
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
	  $(DESTDIR)$(PREFIX)/share/gpmc
	install -m 755 gpmc $(DESTDIR)$(PREFIX)/bin/gpmc
	install -m 644 litmus/gpmc.cuh $(DESTDIR)$(PREFIX)/share/gpmc/gpmc.cuh
	install -m 644 gpmc.1 $(DESTDIR)$(PREFIX)/share/man/man1/gpmc.1

clean:
	rm -rf build build-asan build-fuzz gpmc gpmc.cuh
