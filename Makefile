# gpmc — crash-consistency model checker for GPU persistent-memory programs.
#   make            build ./gpmc
#   make test       unit tests (cmocka), then end-to-end tests
#   make asan       the same tests under -fsanitize=address,undefined
#   make run        the bundled suite under every model into results/gpmc.db,
#                   then the verdict matrix and results/report.html
#   make bench      benchmarks (see bench/)
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
# report in tests/e2e/report_html.sh).
DEBS_RUN  := gcc make libsqlite3-dev graphviz
DEBS_TEST := libcmocka-dev sqlite3 python3 chromium
V       ?= 0
Q       := $(if $(filter 1,$(V)),,@)

SUBSYS  := litmus model checker results harness
SRCS    := $(foreach d,$(SUBSYS),$(wildcard $(d)/*.c))
MAIN    := harness/gpmc.c
LIBSRCS := $(filter-out $(MAIN),$(SRCS))
LIBOBJS := $(LIBSRCS:%.c=$(BUILD)/%.o)
TESTS   := $(patsubst tests/%.c,$(BUILD)/tests/%,$(wildcard tests/test_*.c))
HDRS    := $(foreach d,$(SUBSYS),$(wildcard $(d)/*.h)) $(wildcard tests/*.h)

.PHONY: all test unit e2e asan run bench deps deps-run install clean
.DEFAULT_GOAL := all

all: gpmc

gpmc: $(BUILD)/gpmc
	$(Q)cp $< $@

$(BUILD)/gpmc: $(BUILD)/harness/gpmc.o $(BUILD)/libgpmc.a
	$(if $(Q),@echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

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

unit: $(TESTS)
	@set -e; for t in $(TESTS); do echo "== $$t"; $$t; done

e2e: $(BUILD)/gpmc
	@GPMC=$(BUILD)/gpmc sh tests/e2e.sh

test: deps
	$(MAKE) unit
	$(MAKE) e2e

asan: deps
	$(MAKE) BUILD=build-asan OPT=-O1 \
	  SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
	  unit e2e

# The suite's line per check goes to RUN_OUT/suite.log; the terminal gets
# the failing checks and the summary, the verdict matrix and the report's
# path. The target fails when the suite does (after printing all that).
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
	tail -n 1 $(RUN_OUT)/suite.log; echo; \
	$(RUN_GPMC) report verdicts --db $(RUN_OUT)/gpmc.db || st=3; \
	$(RUN_GPMC) report html --db $(RUN_OUT)/gpmc.db \
	  -o $(RUN_OUT)/report.html || st=3; \
	echo; echo "HTML report: $(RUN_OUT)/report.html"; exit $$st

bench: gpmc
	sh bench/run.sh

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
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 gpmc $(DESTDIR)$(PREFIX)/bin/gpmc
	install -m 644 gpmc.1 $(DESTDIR)$(PREFIX)/share/man/man1/gpmc.1

clean:
	rm -rf build build-asan gpmc
