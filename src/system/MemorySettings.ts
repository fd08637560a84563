/**
 * The memory settings the service is measured with, applied by re-executing
 * the process once at start (Linux, Node 22.15 or later: `process.execve`
 * keeps the pid, the open descriptors and the arguments):
 *
 * - V8's young generation at 4 MiB a semi-space (`--max-semi-space-size=4`).
 *   V8 grows it to 64 MiB while the read model loads and keeps it: on the
 *   embedded default that is about 150 MiB of the settled RSS, for a cost in
 *   read throughput that `npm run bench` shows beside bare node:http.
 * - glibc's malloc returning what is freed: blocks of 32 KiB and more (the
 *   store's row buffers and the price columns while the read model loads)
 *   come from mmap and go back to the system when freed, and two arenas serve
 *   every thread instead of eight per core (`MALLOC_ARENA_MAX`,
 *   `MALLOC_MMAP_THRESHOLD_`: read by glibc at process start, hence the
 *   re-execution). The top of the heap is given back only past 1 MiB free
 *   (`MALLOC_TRIM_THRESHOLD_`): trimming it at 32 KiB moved the break on
 *   nearly every request and cost a fifth of the quote route's throughput in
 *   `npm run bench`.
 *
 * Settings the caller gave (a `--max-semi-space-size` flag, or any of these
 * variables) are kept. `PSX_MEMORY_SETTINGS=off` starts without them; under
 * Deno, or where `process.execve` is missing, the process runs as started.
 */
/** Set to `applied` in the re-executed process; `off` opts out. */
export const MEMORY_SETTINGS_MARK = "PSX_MEMORY_SETTINGS"

const SEMI_SPACE = "--max-semi-space-size=4"
const MALLOC: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: "2",
  MALLOC_MMAP_THRESHOLD_: "32768",
  MALLOC_TRIM_THRESHOLD_: "1048576"
}

const semiSpaceGiven = () =>
  [...process.execArgv, ...(process.env["NODE_OPTIONS"] ?? "").split(/\s+/u)].some((a) => a.startsWith("--max-semi-space-size"))

/** Re-executes this process with the settings (once); returns when they are in place or not wanted. */
export const applyMemorySettings = (): void => {
  const execve = (process as { execve?: (file: string, args: ReadonlyArray<string>, env: NodeJS.ProcessEnv) => never }).execve
  if (process.env[MEMORY_SETTINGS_MARK] !== undefined || process.platform !== "linux" || typeof execve !== "function") return
  if ("Deno" in globalThis) return
  const flags = semiSpaceGiven() ? [] : [SEMI_SPACE]
  const env = { ...MALLOC, ...process.env, [MEMORY_SETTINGS_MARK]: "applied" }
  execve(process.execPath, [process.execPath, ...process.execArgv, ...flags, ...process.argv.slice(1)], env)
}
