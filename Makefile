# gpmc — crash-consistency model checker for GPU persistent-memory programs.
#   make            build ./gpmc
#   make test       unit tests (cmocka), then end-to-end tests
#   make asan       the same tests under -fsanitize=address,undefined
#   make run        the bundled suite under every model into results/gpmc.db
#   make bench      benchmarks (see bench/)
#   make deps       install missing build dependencies (Debian)
#   make install PREFIX=/usr/local

CC      ?= cc
BUILD   ?= build
OPT     ?= -O2
SAN     ?=
PREFIX  ?= /usr/local
CFLAGS  := -std=c11 -Wall -Wextra -Werror -g $(OPT) $(SAN) \
           -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -I. $(EXTRA_CFLAGS)
LDLIBS  := -lsqlite3 -lm -pthread
DEBS    := libcmocka-dev libsqlite3-dev pkg-config sqlite3

SUBSYS  := litmus model checker results harness
SRCS    := $(foreach d,$(SUBSYS),$(wildcard $(d)/*.c))
MAIN    := harness/gpmc.c
LIBSRCS := $(filter-out $(MAIN),$(SRCS))
LIBOBJS := $(LIBSRCS:%.c=$(BUILD)/%.o)
TESTS   := $(patsubst tests/%.c,$(BUILD)/tests/%,$(wildcard tests/test_*.c))
HDRS    := $(foreach d,$(SUBSYS),$(wildcard $(d)/*.h)) $(wildcard tests/*.h)

.PHONY: all test unit e2e asan run bench deps install clean
.DEFAULT_GOAL := all

all: gpmc

gpmc: $(BUILD)/gpmc
	cp $< $@

$(BUILD)/gpmc: $(BUILD)/harness/gpmc.o $(BUILD)/libgpmc.a
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/libgpmc.a: $(LIBOBJS)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/%.o: %.c $(HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

$(BUILD)/tests/%: tests/%.c $(BUILD)/libgpmc.a $(HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(BUILD)/libgpmc.a -lcmocka $(LDLIBS)

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

run: deps gpmc
	@mkdir -p results
	./gpmc suite litmus/suite --model all --jobs 2 --db results/gpmc.db || true
	./gpmc report verdicts --db results/gpmc.db

bench: gpmc
	sh bench/run.sh

deps:
	@missing=""; for p in $(DEBS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" -eq 0 ]; then SUDO=""; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq $$missing; \
	fi

install: gpmc
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 gpmc $(DESTDIR)$(PREFIX)/bin/gpmc
	install -m 644 gpmc.1 $(DESTDIR)$(PREFIX)/share/man/man1/gpmc.1

clean:
	rm -rf build build-asan gpmc
