#!/bin/sh
# The library and the program's main file compile without a warning at -O0
# and at -O3 too, not only at the default -O2 (warnings such as
# -Wclobbered and -Wmaybe-uninitialized depend on the optimizer; the
# Makefile's -Werror turns each into a failure). Each level builds into a
# directory of its own under $T, with the Makefile's flags and nothing
# inherited from a calling make (`make asan` passes SAN and OPT down).
. "$(dirname "$0")/lib.sh"
need make
for opt in -O0 -O3; do
    dir=$T/build$opt
    set +e
    env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
        make -C "$ROOT" -s -j2 BUILD="$dir" OPT="$opt" SAN= EXTRA_CFLAGS= \
        "$dir/libgpmc.a" "$dir/harness/gpmc.o" >"$T/out" 2>"$T/err"
    rc=$?
    set -e
    [ "$rc" = 0 ] || fail "make OPT=$opt failed: $(grep -m5 -E 'error|warning' "$T/err")"
    # make -s prints only the compiler's own output: any is a warning
    # that -Werror would not catch (a note, or a flag it leaves alone).
    cat "$T/out" "$T/err" | grep -v '^  \(CC\|LD\) ' >"$T/said" || true
    [ ! -s "$T/said" ] || fail "make OPT=$opt printed: $(head -5 "$T/said")"
    [ -f "$dir/libgpmc.a" ] || fail "make OPT=$opt built no libgpmc.a"
done
