#!/bin/sh
# The service as users run it (`npm start`), and as the benchmarks measure it: Node with the memory settings the
# service is measured with, then `src/main.ts serve`. Settings already in the environment are kept;
# PSX_MEMORY_SETTINGS=off runs plain `node src/main.ts serve`.
#
# - V8's young generation at 4 MiB a semi-space (--max-semi-space-size=4). V8 grows it to 64 MiB while the read
#   model loads and keeps it: on the embedded default that is about 150 MiB of the settled RSS.
# - glibc's malloc returning what is freed: blocks of 32 KiB and more come from mmap and go back to the system when
#   freed; two arenas serve every thread instead of eight per core. The top of the heap is given back only past
#   1 MiB free: trimming at 32 KiB moved the break on nearly every request and cost a fifth of the quote route's
#   throughput in `npm run bench`. glibc reads these at process start, hence a launcher and not code.
# - Node's compile cache (in the system's temporary directory): a later start skips compiling the code again.
# - PSX_MEMORY_SETTINGS=applied tells the service (src/system/HeapSettle.ts) that it may settle V8's heap.
set -eu
cd "$(dirname "$0")/.."
node="${PSX_NODE:-node}" # the Node to run (npm puts the pinned one first on PATH; the benchmarks name theirs)
if [ "${PSX_MEMORY_SETTINGS:-}" = "off" ]; then exec "$node" src/main.ts serve "$@"; fi
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
export MALLOC_MMAP_THRESHOLD_="${MALLOC_MMAP_THRESHOLD_:-32768}"
export MALLOC_TRIM_THRESHOLD_="${MALLOC_TRIM_THRESHOLD_:-1048576}"
export NODE_COMPILE_CACHE="${NODE_COMPILE_CACHE:-${TMPDIR:-/tmp}/psx-node-compile-cache}"
export PSX_MEMORY_SETTINGS=applied
case " ${NODE_OPTIONS:-} " in
  *--max-semi-space-size*) exec "$node" src/main.ts serve "$@" ;;
  *) exec "$node" --max-semi-space-size=4 src/main.ts serve "$@" ;;
esac
