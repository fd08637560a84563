#!/bin/sh
# `npm start`: the service as users run it and as the benchmarks measure it. One start line, with only Node's
# documented options and glibc's documented malloc tunables (MALLOC_* and NODE_COMPILE_CACHE already set are kept):
#
# - --max-semi-space-size=4 (Node CLI, "V8 options"): V8's young generation at 4 MiB a semi-space. V8 grows it to
#   64 MiB while the read model loads and keeps it; on the embedded default that was about 150 MiB of settled RSS.
# - MALLOC_ARENA_MAX=2 (glibc manual, "Memory Allocation Tunables", glibc.malloc.arena_max): two malloc arenas for
#   every thread instead of eight per core; the PGlite and libuv threads otherwise each hold freed memory of their own.
# - MALLOC_MMAP_THRESHOLD_=32768 (glibc.malloc.mmap_threshold): blocks of 32 KiB and more come from mmap and go back
#   to the system when freed (node's large Buffers, the store's pages).
# - MALLOC_TRIM_THRESHOLD_=1048576 (glibc.malloc.trim_threshold): the top of the heap is given back past 1 MiB free;
#   trimming at 32 KiB moved the break on nearly every request and cost a fifth of the quote route's throughput.
# - NODE_COMPILE_CACHE (Node CLI, environment variables): a later start skips compiling the code again.
#
# What they measure to is in docs/BENCHMARKS.md (`npm run bench`, `npm run bench:start`).
set -eu
cd "$(dirname "$0")/.."
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
export MALLOC_MMAP_THRESHOLD_="${MALLOC_MMAP_THRESHOLD_:-32768}"
export MALLOC_TRIM_THRESHOLD_="${MALLOC_TRIM_THRESHOLD_:-1048576}"
export NODE_COMPILE_CACHE="${NODE_COMPILE_CACHE:-${TMPDIR:-/tmp}/psx-node-compile-cache}"
# PSX_NODE: the Node to run (npm puts the pinned one first on PATH; the benchmarks name theirs).
exec "${PSX_NODE:-node}" --max-semi-space-size=4 src/main.ts serve "$@"
