#!/bin/sh
# mkptx.sh GPMC DIR... — regenerates the committed PTX of the bundled CUDA
# files (`make ptx`). gpmc prefers a FILE.ptx beside FILE.cu whose first line
# is the "// gpmc: sha256 HASH from FILE.cu" header of the matching compile
# (litmus/lit_cuda.c), so `make run` works without clang. For each directory
# with .cu files, every test there is parsed with a fresh, empty PTX cache:
# a .cu whose sibling .ptx is stale (the .cu, gpmc.cuh or the pinned flags
# changed) is compiled by clang into the cache, and the result is copied
# beside it. Up-to-date siblings are left alone; pass -f first to recompile
# every one (after a clang upgrade: its version is not part of the hash).
set -eu
force=0
if [ "${1:-}" = -f ]; then force=1; shift; fi
gpmc=$1
shift
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpmc-mkptx.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
for top in "$@"; do
    find "$top" -name '*.cu' -exec dirname {} \; | sort -u | while read -r d; do
        rm -rf "$tmp/c"
        mkdir "$tmp/c"
        if [ $force = 1 ]; then
            for cu in "$d"/*.cu; do rm -f "${cu%.cu}.ptx"; done
        fi
        for t in "$d"/*.litmus; do
            GPMC_CACHE=$tmp/c "$gpmc" parse "$t" >/dev/null
        done
        for p in "$tmp"/c/*.ptx; do
            [ -e "$p" ] || continue
            cu=$(head -1 "$p" | sed -n 's|^// gpmc: sha256 [0-9a-f]* from ||p')
            [ -f "$d/$cu" ] || { echo "mkptx: $p names no .cu in $d" >&2; exit 1; }
            cp "$p" "$d/${cu%.cu}.ptx"
            echo "mkptx: $d/${cu%.cu}.ptx"
        done
    done
done
