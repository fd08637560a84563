/**
 * The load generator of the HTTP benchmarks: wrk (a C load generator that
 * saturates a bare node:http server on this machine, where autocannon
 * measured itself at half that rate), one thread, pinned to a core of its own
 * where the machine has more than one, rotating over a list of paths
 * (bench/wrk-rotate.lua). wrk is a Debian package: `apt-get install wrk`.
 */
import { execFileSync } from "node:child_process"
import { writeFileSync } from "node:fs"
import { availableParallelism } from "node:os"
import { join } from "node:path"

export interface LoadResult {
  readonly rps: number
  /** Latency percentiles in milliseconds. */
  readonly p50: number
  readonly p99: number
  /** Answers with a status of 400 or more (a rotation over the universe includes 404s and 409s by design). */
  readonly statusErrors: number
  /** Connection, read, write errors and time-outs. */
  readonly socketErrors: number
  readonly requests: number
  readonly durationUs: number
  /** Latencies: each distinct value (microseconds) with its count, ascending. */
  readonly histogram: ReadonlyArray<readonly [number, number]>
}

/** The latency (ms) at percentile `p` of a histogram. */
const percentile = (histogram: ReadonlyArray<readonly [number, number]>, p: number) => {
  const total = histogram.reduce((n, [, count]) => n + count, 0)
  const rank = Math.ceil((p / 100) * total)
  let seen = 0
  for (const [value, count] of histogram) {
    seen += count
    if (seen >= rank) return value / 1000
  }
  return Number.NaN
}

/** Runs taken in slices as one: requests over time, percentiles of the merged latency histograms. */
export const combined = (runs: ReadonlyArray<LoadResult>): LoadResult => {
  const counts = new Map<number, number>()
  for (const run of runs) {
    for (const [value, count] of run.histogram) counts.set(value, (counts.get(value) ?? 0) + count)
  }
  const histogram = [...counts].sort((a, b) => a[0] - b[0])
  const requests = runs.reduce((n, r) => n + r.requests, 0)
  const durationUs = runs.reduce((n, r) => n + r.durationUs, 0)
  return {
    rps: requests / (durationUs / 1e6),
    p50: percentile(histogram, 50),
    p99: percentile(histogram, 99),
    statusErrors: runs.reduce((n, r) => n + r.statusErrors, 0),
    socketErrors: runs.reduce((n, r) => n + r.socketErrors, 0),
    requests,
    durationUs,
    histogram
  }
}

/** The path to wrk, or a message saying how to install it. */
export const findWrk = (): string => {
  try {
    return execFileSync("sh", ["-c", "command -v wrk"], { encoding: "utf8" }).trim()
  } catch {
    throw new Error("the benchmarks need wrk (a load generator that can saturate node:http): apt-get install wrk")
  }
}

const cores = availableParallelism()
/** The core wrk runs on (the last), and the ones the servers run on (the others), when there are two or more. */
export const generatorCore = cores >= 2 ? String(cores - 1) : undefined
export const serverCores = cores >= 2 ? `0-${cores - 2}` : undefined

/** Prefixes a command with `taskset` onto `cpus`, when the machine allows pinning. */
export const pinned = (cpus: string | undefined, command: ReadonlyArray<string>): ReadonlyArray<string> =>
  cpus === undefined ? command : ["taskset", "-c", cpus, ...command]

/** One wrk run against `base`, rotating over `paths`, for `seconds`. */
export const load = (
  dir: string,
  base: string,
  connections: number,
  seconds: number,
  paths: ReadonlyArray<string>
): LoadResult => {
  const wrk = findWrk()
  const list = join(dir, "paths.txt")
  writeFileSync(list, paths.join("\n") + "\n")
  const [command, ...args] = pinned(generatorCore, [
    wrk,
    "-t1",
    `-c${connections}`,
    `-d${seconds}s`,
    "--latency",
    "-s",
    join(import.meta.dirname, "wrk-rotate.lua"),
    base
  ])
  const out = execFileSync(command!, args, {
    encoding: "utf8",
    env: { ...process.env, WRK_PATHS: list },
    maxBuffer: 4 << 20
  })
  const line = out.split("\n").find((l) => l.startsWith("@@"))
  if (line === undefined) throw new Error(`wrk printed no result:\n${out}`)
  const r = JSON.parse(line.slice(2)) as {
    requests: number
    duration_us: number
    p50_us: number
    p99_us: number
    status_errors: number
    socket_errors: number
    histogram: Array<[number, number]>
  }
  return {
    rps: r.requests / (r.duration_us / 1e6),
    p50: r.p50_us / 1000,
    p99: r.p99_us / 1000,
    statusErrors: r.status_errors,
    socketErrors: r.socket_errors,
    requests: r.requests,
    durationUs: r.duration_us,
    histogram: r.histogram
  }
}
