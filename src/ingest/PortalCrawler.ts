/**
 * The crawler over every portal dataset for every listed symbol.
 *
 * - One request at a time (the adapter's gate spaces them at least
 *   PSX_PORTAL_MIN_INTERVAL_MS apart and retries 5xx with backoff); after
 *   three refusals in a row (403, 429, 5xx, time-outs) a pass stops and the
 *   scheduler backs off.
 * - Stalest first: per-symbol work is ordered by its last success, kept in
 *   `crawl_state`, so a restart resumes where the crawl stood.
 * - Each dataset is fetched first and written after, in one transaction; a
 *   failure writes nothing (the last good figures stay), is logged naming the
 *   route, and is kept as that dataset's last error.
 */
import { Clock, Context, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { describeStoreError } from "../db/SqlErrors.ts"
import { NewsFeeds } from "../sources/NewsFeeds.ts"
import { PsxPortal } from "../sources/PsxPortal.ts"
import { decodeRows } from "./Bulk.ts"
import type { DatasetWrite, Outcome, PortalDataset, RunContext } from "./DatasetDefinition.ts"
import { marketTransaction, retrievedAt } from "./MarketWrite.ts"
import { portalDatasets } from "./PortalDatasets.ts"
import {
  type Attempt,
  type CrawlStatus,
  crawlStatus,
  recordAttempts,
  recordProvenance,
  symbolKeys
} from "./PortalStore.ts"

export interface PassOptions {
  /** Dataset kinds to run (default: all). */
  readonly datasets?: ReadonlyArray<string>
  /** Symbols for the per-symbol datasets (default: every listed symbol that is not a debt instrument). */
  readonly symbols?: ReadonlyArray<string>
  /** Only what is due (older than the dataset's period), as the scheduler runs it. */
  readonly dueOnly?: boolean
  /** Stop after this many requests (the scheduler's slice). */
  readonly maxRequests?: number
  readonly onProgress?: (
    p: { readonly dataset: string; readonly done: number; readonly total: number }
  ) => Effect.Effect<void>
}

export interface DatasetSummary {
  readonly dataset: string
  readonly requests: number
  readonly fetched: number
  readonly failed: number
  readonly read: number
  readonly written: number
  readonly unchanged: number
  /** reason → how many keys failed (or rows were left out) for it. */
  readonly reasons: Readonly<Record<string, number>>
  readonly ms: number
}

export interface PassSummary {
  readonly datasets: ReadonlyArray<DatasetSummary>
  readonly requests: number
  readonly seconds: number
  /** Why the pass stopped early, if it did. */
  readonly stopped?: string
}

/** A failure the portal made (not our parse): back off instead of going on. */
export const isRefusal = (message: string) => /HTTP (403|429|5\d\d)|timed? ?out|Timeout/i.test(message)
const REFUSALS_BEFORE_STOP = 3
const lastSuccess = Schema.Struct({ ms: Schema.NullOr(Schema.Number) })

type RunResult =
  | { readonly ok: true; readonly outcome: Outcome; readonly at: string }
  | { readonly ok: false; readonly message: string; readonly at: string }

type Tally = { -readonly [K in keyof Omit<DatasetSummary, "ms" | "reasons">]: DatasetSummary[K] } & {
  readonly reasons: Record<string, number>
}

const iso = (ms: number) => new Date(ms).toISOString()
const bump = (reasons: Record<string, number>, why: string, n = 1) => {
  reasons[why] = (reasons[why] ?? 0) + n
}

/** Counts one attempt into its dataset's tally and hands back its crawl-state row. */
const tallyAttempt = (s: Tally, d: PortalDataset, key: string, r: RunResult): Attempt => {
  s.requests++
  if (!r.ok) {
    s.failed++
    bump(s.reasons, reasonOf(r.message, key))
    return { kind: d.kind, key, at: r.at, ok: false, read: 0, written: 0, unchanged: 0, error: r.message.slice(0, 500) }
  }
  s.fetched++
  s.read += r.outcome.read
  s.written += r.outcome.written
  s.unchanged += r.outcome.unchanged
  for (const [why, n] of Object.entries(r.outcome.skipped)) bump(s.reasons, `left out: ${why}`, n)
  return {
    kind: d.kind,
    key,
    at: r.at,
    ok: true,
    read: r.outcome.read,
    written: r.outcome.written,
    unchanged: r.outcome.unchanged
  }
}

/** An absent page (404) waits its turn; a refusal is a warning; a page that no longer parses is an error naming the route. */
const logFailure = (d: PortalDataset, key: string, message: string) => {
  const log = /HTTP 404/.test(message) ? Effect.logDebug : isRefusal(message) ? Effect.logWarning : Effect.logError
  return log({ msg: "portal dataset failed; nothing written", route: d.route, key, error: message })
}

/** A reason without the volatile parts (symbols, numbers), so failures group. */
const reasonOf = (message: string, key: string) =>
  (key === "*"
    ? message
    : message.replace(new RegExp(`(?<=[ /=])${key.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&")}(?=[ )/,]|$)`, "g"), "{SYM}"))
    .replace(/https?:\/\/[^/ ]+/g, "")
    .replace(/\s+/g, " ")
    .slice(0, 160)

/** What a crawl runs with: the store, the portal and the news feeds. */
interface CrawlDeps {
  readonly sql: SqlClient.SqlClient
  readonly portal: typeof PsxPortal.Service
  readonly feeds: typeof NewsFeeds.Service
}
const storeOf = (deps: CrawlDeps) => <A, E>(e: Effect.Effect<A, E, SqlClient.SqlClient>) =>
  Effect.provideService(e, SqlClient.SqlClient, deps.sql)

/** One dataset for one key: fetch, then write in a transaction; the attempt as a crawl-state row. */
const runOne = (deps: CrawlDeps) =>
  Effect.fn("PortalCrawler.runOne")(function*(d: PortalDataset, key: string) {
    const now = yield* Clock.currentTimeMillis
    const ctx: RunContext = { portal: deps.portal, feeds: deps.feeds, now }
    const fetched = yield* Effect.result(d.run(key, ctx))
    if (fetched._tag === "Failure") {
      return { ok: false, message: fetched.failure.message, at: iso(now) } satisfies RunResult
    }
    const write: DatasetWrite = fetched.success
    const written = yield* storeOf(deps)(marketTransaction(Effect.gen(function*() {
      // Every row this write adds or supersedes was retrieved when the page was fetched (point-in-time reads).
      yield* retrievedAt(iso(now))
      const o = yield* write
      const loadedAt = iso(yield* Clock.currentTimeMillis)
      if (o.written > 0) {
        yield* recordProvenance(d, iso(now), o.asOf ?? iso(now), loadedAt, o.skipped)
      }
      return o
    }))).pipe(Effect.result)
    if (written._tag === "Failure") {
      return {
        ok: false,
        message: `store: ${describeStoreError(written.failure).slice(0, 240)}`,
        at: iso(now)
      } satisfies RunResult
    }
    return { ok: true, outcome: written.success, at: iso(now) } satisfies RunResult
  })

/** A market-wide page is due when its last success is older than its period. */
const dueMarket = (deps: CrawlDeps, d: PortalDataset, now: number) =>
  storeOf(deps)(Effect.gen(function*() {
    const rows = yield* decodeRows(lastSuccess)(deps.sql`
      SELECT (extract(epoch FROM succeeded_at) * 1000)::float8 AS ms FROM crawl_state WHERE kind = ${d.kind} AND key = '*'`)
    const last = rows[0]?.ms
    return last === undefined || last === null || last < now - d.everyMs
  })).pipe(Effect.orElseSucceed(() => false))

/** The keys a dataset visits in this pass: `*` for a market page, else symbols stalest first. */
const keysOf = (deps: CrawlDeps, d: PortalDataset, options: PassOptions, now: number, budget: number | undefined) =>
  d.scope === "market"
    ? Effect.map(options.dueOnly ? dueMarket(deps, d, now) : Effect.succeed(true), (due) => (due ? ["*"] : []))
    : storeOf(deps)(symbolKeys(d.kind, {
      ...(options.symbols !== undefined ? { symbols: options.symbols } : {}),
      ...(options.dueOnly ? { dueBefore: iso(now - d.everyMs) } : {}),
      ...(d.includeDelisted === true ? { includeDelisted: true } : {}),
      ...(budget !== undefined ? { limit: Math.max(0, budget) } : {})
    })).pipe(Effect.orElseSucceed(() => [] as ReadonlyArray<string>))

export class PortalCrawler extends Context.Service<PortalCrawler, {
  /** One pass over the chosen datasets and symbols; failures are reported, never thrown. */
  readonly pass: (options?: PassOptions) => Effect.Effect<PassSummary>
  /** The company page and payouts of one symbol, now (coalescing is the caller's). */
  readonly fetchCompany: (symbol: string) => Effect.Effect<boolean>
  /** Progress and last error per dataset kind. */
  readonly status: Effect.Effect<ReadonlyArray<CrawlStatus>>
}>()("psx/ingest/PortalCrawler") {
  static readonly make = Effect.gen(function*() {
    const deps: CrawlDeps = { sql: yield* SqlClient.SqlClient, portal: yield* PsxPortal, feeds: yield* NewsFeeds }
    const provided = storeOf(deps)
    const run = runOne(deps)

    const pass = Effect.fn("PortalCrawler.pass")(function*(options: PassOptions = {}) {
      const started = yield* Clock.currentTimeMillis
      const chosen = portalDatasets.filter((d) => options.datasets === undefined || options.datasets.includes(d.kind))
      const summaries: Array<DatasetSummary> = []
      const state = { requests: 0, refusals: 0, stopped: undefined as string | undefined }
      const pending: Array<Attempt> = []
      const flush = Effect.suspend(() => provided(recordAttempts(pending.splice(0)))).pipe(
        Effect.catchCause((cause) => Effect.logError({ msg: "crawl state not recorded", cause: String(cause) }))
      )
      const budgetLeft = () => (options.maxRequests === undefined ? undefined : options.maxRequests - state.requests)
      for (const d of chosen) {
        const t0 = yield* Clock.currentTimeMillis
        const keys = yield* keysOf(deps, d, options, t0, budgetLeft())
        const s: Tally = {
          dataset: d.kind,
          requests: 0,
          fetched: 0,
          failed: 0,
          read: 0,
          written: 0,
          unchanged: 0,
          reasons: {}
        }
        for (const key of keys) {
          if (state.stopped !== undefined || (budgetLeft() ?? 1) <= 0) break
          const r = yield* run(d, key)
          state.requests++
          pending.push(tallyAttempt(s, d, key, r))
          if (r.ok) state.refusals = 0
          else {
            yield* logFailure(d, key, r.message)
            state.refusals = isRefusal(r.message) ? state.refusals + 1 : 0
            if (state.refusals >= REFUSALS_BEFORE_STOP) {
              state.stopped = `the portal refused ${state.refusals} requests in a row (${
                reasonOf(r.message, key)
              }); backing off`
            }
          }
          if (pending.length >= 25) yield* flush
          if (options.onProgress) yield* options.onProgress({ dataset: d.kind, done: s.requests, total: keys.length })
        }
        if (state.stopped !== undefined && s.requests < keys.length) {
          bump(s.reasons, `not tried: ${state.stopped}`, keys.length - s.requests)
        }
        yield* flush
        summaries.push({ ...s, ms: (yield* Clock.currentTimeMillis) - t0 })
      }
      const seconds = ((yield* Clock.currentTimeMillis) - started) / 1000
      const { requests, stopped } = state
      return {
        datasets: summaries,
        requests,
        seconds,
        ...(stopped !== undefined ? { stopped } : {})
      } satisfies PassSummary
    })

    const fetchCompany = Effect.fn("PortalCrawler.fetchCompany")(function*(symbol: string) {
      const summary = yield* pass({ datasets: ["company", "company_payouts"], symbols: [symbol] })
      return summary.datasets.some((d) => d.fetched > 0)
    })

    const status = provided(crawlStatus).pipe(Effect.orElseSucceed(() => []))
    return PortalCrawler.of({ pass, fetchCompany, status })
  })

  static readonly layer = Layer.effect(PortalCrawler, PortalCrawler.make)
}
