/**
 * The live refresh, on when PSX_SOURCE=portal: the crawler
 * (./PortalCrawler.ts) run on the Karachi calendar by one leader.
 */
import { Clock, Context, Duration, Effect, Layer, Ref, Schema, Scope } from "effect"
import { SqlClient } from "effect/sql"
import { marketStatus } from "../../domain/market/calendar/Calendar.ts"
import { AppConfig } from "../config/AppConfig.ts"
import { Database } from "../db/Database.ts"
import { type PassSummary, PortalCrawler } from "./PortalCrawler.ts"

/** The advisory lock key of the crawl leader ("PSXCRAWL" as a number). */
export const LEADER_LOCK = 0x50535843
const BOARD_KINDS = ["market_watch"]
const inSession = new Set([
  "pre_open",
  "order_matching",
  "opening",
  "trading",
  "between_sessions",
  "after_trading",
  "post_close"
])
/** Requests per tick after the close, so the board keeps its turn and a restart loses little. */
const SLICE = 120

const lockRow = Schema.Struct({ ok: Schema.Boolean })

export class PortalLeader extends Context.Service<PortalLeader, {
  /** Whether this instance leads now (tries to take the lock when it does not). */
  readonly lead: Effect.Effect<boolean>
}>()("psx/ingest/PortalLeader") {
  /** The lock is held by one reserved connection for the life of the layer's scope. */
  static readonly layer = Layer.effect(
    PortalLeader,
    Effect.gen(function*() {
      const db = yield* Database
      const sql = yield* SqlClient.SqlClient
      const scope = yield* Scope.Scope
      if (db.mode === "embedded") return { lead: Effect.succeed(true) }
      const leading = yield* Ref.make(false)
      const tryLock = Effect.gen(function*() {
        // A reserved connection stays checked out (and the lock with it) until the scope closes.
        const conn = yield* sql.reserve.pipe(Scope.provide(scope))
        const rows = yield* conn.executeUnprepared(`SELECT pg_try_advisory_lock(${LEADER_LOCK}) AS ok`, [], undefined)
        const [row] = yield* Schema.decodeUnknownEffect(Schema.Array(lockRow))(rows)
        return row?.ok === true
      }).pipe(Effect.orElseSucceed(() => false))
      const lead = Effect.gen(function*() {
        if (yield* Ref.get(leading)) return true
        const ok = yield* tryLock
        if (ok) yield* Ref.set(leading, true)
        return ok
      })
      return { lead }
    })
  )
}

/**
 * - Calendar (domain/market/calendar/Calendar.ts): nothing on a day without trading
 *   (weekends, holidays). During a session, the board every few minutes.
 *   After the session (post-close done) the board once more, which closes
 *   the day in every history, then the due backlog, stalest first: daily
 *   pages and eod daily, company pages and payouts weekly, a slice per tick.
 * - Leader: on PostgreSQL, the instance holding a session advisory lock
 *   crawls; the others only read (and take over if it goes away). The
 *   embedded store is single-process, so its one instance always leads.
 * - Back-off: a tick whose pass was stopped by refusals (403/429/5xx,
 *   time-outs) doubles the wait before the next one, up to an hour.
 */
export class PortalRefresh extends Context.Service<PortalRefresh, {
  /** One tick of the schedule at the Clock's now: what is due, if this instance leads and the calendar allows. */
  readonly tick: Effect.Effect<PassSummary | undefined>
}>()("psx/ingest/PortalRefresh") {
  static readonly layer = Layer.effect(
    PortalRefresh,
    Effect.gen(function*() {
      const crawler = yield* PortalCrawler
      const leader = yield* PortalLeader
      const tick = Effect.gen(function*() {
        if (!(yield* leader.lead)) return undefined
        const status = marketStatus(yield* Clock.currentTimeMillis)
        if (!status.is_trading_day) return undefined
        if (inSession.has(status.phase)) return yield* crawler.pass({ datasets: BOARD_KINDS, dueOnly: true })
        return yield* crawler.pass({ dueOnly: true, maxRequests: SLICE })
      }).pipe(Effect.withSpan("PortalRefresh.tick"))
      return { tick }
    })
  )

  /** Every minute while the server runs, if PSX_SOURCE=portal. */
  static readonly scheduled = Layer.effectDiscard(Effect.gen(function*() {
    const config = yield* AppConfig
    if (config.source !== "portal") return
    const refresh = yield* PortalRefresh
    const wait = yield* Ref.make(Duration.minutes(1))
    const loop = Effect.gen(function*() {
      const summary = yield* refresh.tick
      if (summary !== undefined && summary.requests > 0) yield* Effect.logInfo({ msg: "portal crawl tick", ...summary })
      const next = summary?.stopped !== undefined
        ? Duration.min(Duration.times(yield* Ref.get(wait), 2), Duration.hours(1))
        : Duration.minutes(1)
      yield* Ref.set(wait, next)
      yield* Effect.sleep(next)
    })
    yield* Effect.forever(loop).pipe(Effect.forkScoped)
  }))
}
