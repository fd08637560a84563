/**
 * `GET /v1/ingest/fundamentals?n=` with the live portal: fetch, parse and
 * store the company page and payouts of the n stalest or never-fetched
 * listed symbols (n ≤ 40; the route bounds it), one request at a time like
 * every crawl. A symbol another call is already fetching is not fetched
 * again: the concurrent call takes the next stalest instead.
 * Also the crawl's progress per dataset, as `/v1/freshness` shows it.
 */
import { Clock, Effect, Ref, Schema, Semaphore } from "effect"
import { SqlClient } from "effect/sql"
import { DAY_MS } from "../../domain/Karachi.ts"
import { decodeRows } from "./Bulk.ts"
import type { PortalCrawler } from "./PortalCrawler.ts"
import { crawlStatus, symbolKeys } from "./PortalStore.ts"

const WEEK_MS = 7 * DAY_MS

const countsRow = Schema.Struct({ remaining: Schema.Int, universe: Schema.Int })

export const makeLivePrefetch = (crawler: typeof PortalCrawler.Service) =>
  Effect.gen(function*() {
    const inFlight = yield* Ref.make<ReadonlySet<string>>(new Set())
    const claiming = yield* Semaphore.make(1)
    return Effect.fn("LivePrefetch.prefetch")(function*(n: number) {
      const now = yield* Clock.currentTimeMillis
      const dueBefore = new Date(now - WEEK_MS).toISOString()
      // Claims are made one call at a time: a symbol another call is fetching is left to it.
      const mine = yield* claiming.withPermit(Effect.gen(function*() {
        const busy = yield* Ref.get(inFlight)
        const candidates = yield* symbolKeys("company", { dueBefore, limit: n + busy.size })
        const free = candidates.filter((s) => !busy.has(s)).slice(0, n)
        yield* Ref.set(inFlight, new Set([...busy, ...free]))
        return free
      }))
      const fetched = yield* Effect.forEach(mine, (symbol) => crawler.fetchCompany(symbol)).pipe(
        Effect.ensuring(Ref.update(inFlight, (taken) => new Set([...taken].filter((s) => !mine.includes(s)))))
      )
      const sql = yield* SqlClient.SqlClient
      const [counts] = yield* decodeRows(countsRow)(sql`
        SELECT count(*) FILTER (WHERE c.succeeded_at IS NULL OR c.succeeded_at < ${dueBefore}::timestamptz)::int AS remaining,
          count(*)::int AS universe
        FROM securities s LEFT JOIN crawl_state c ON c.kind = 'company' AND c.key = s.symbol
        WHERE NOT s.is_debt AND s.delisted_on IS NULL`)
      return {
        warmed: fetched.filter((ok) => ok).length,
        batch: mine.length,
        remaining: counts?.remaining ?? 0,
        universe: counts?.universe ?? 0,
        source:
          "portal: company page (profile, equity, income statements, ratios) and payouts fetched live from dps.psx.com.pk",
        symbols: mine
      }
    })
  })

/** The crawl's progress and last error per dataset kind, for /v1/freshness. */
export const crawlProgress = (now: number) =>
  Effect.map(crawlStatus, (rows) =>
    rows.map((r) => {
      const failingNow = r.last_error_at !== null && (r.last_success === null || r.last_error_at >= r.last_success)
      return {
        dataset: r.kind,
        keys: r.keys,
        fetched: r.succeeded,
        failing: r.failing,
        ...(r.last_success !== null
          ? {
            last_success: r.last_success,
            age_seconds: Math.max(0, Math.floor((now - Date.parse(r.last_success)) / 1000))
          }
          : {}),
        ...(r.last_attempt !== null ? { last_attempt: r.last_attempt } : {}),
        ...(failingNow ? { error: "SOURCE_UNAVAILABLE" as const } : {}),
        ...(r.last_error !== null ? { last_error: r.last_error } : {}),
        ...(r.last_error_at !== null ? { last_error_at: r.last_error_at } : {})
      }
    }))
