/**
 * The load generator, run as its own process by the benchmarks so it never
 * shares the server's event loop: autocannon against one URL, or rotating
 * over a list of paths (every connection takes the next path of one shared
 * rotation, so a run walks the whole list again and again).
 *
 *   node bench/load.ts '{"url":"http://127.0.0.1:18080","connections":50,"seconds":10,"paths":["/a","/b"]}'
 *
 * Prints one JSON line: requests/s, p50/p99 latency (ms), non-2xx and errors.
 */
import { Schema } from "effect"
import { createRequire } from "node:module"

// autocannon ships no types; its result is decoded below instead.
const autocannon: (options: object) => Promise<unknown> = createRequire(import.meta.url)("autocannon")
const Result = Schema.Struct({
  requests: Schema.Struct({ average: Schema.Finite, total: Schema.Finite }),
  latency: Schema.Struct({ p50: Schema.Finite, p99: Schema.Finite }),
  non2xx: Schema.Finite,
  errors: Schema.Finite,
  timeouts: Schema.Finite
})

interface Job {
  readonly url: string
  readonly connections: number
  readonly seconds: number
  readonly paths: ReadonlyArray<string>
}

const job: Job = JSON.parse(process.argv[2] ?? "{}")
let next = 0

const result = Schema.decodeUnknownSync(Result)(await autocannon({
  url: job.url,
  connections: job.connections,
  duration: job.seconds,
  requests: [{
    method: "GET",
    setupRequest: (request: { path: string }) => {
      request.path = job.paths[next++ % job.paths.length]!
      return request
    }
  }]
}))
console.log(JSON.stringify({
  rps: result.requests.average,
  p50: result.latency.p50,
  p99: result.latency.p99,
  non2xx: result.non2xx,
  errors: result.errors + result.timeouts,
  requests: result.requests.total
}))
