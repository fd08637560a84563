/**
 * The scheduled refresh from the live PSX portal, on when PSX_SOURCE=portal:
 * the listed universe, the screener (fundamentals), the market watch (the
 * delayed board, stored as quotes with the time it was read), announced
 * payouts and company announcements. Each run
 * records its datasets' provenance; a source that fails changes nothing (the
 * last good figures stay, with their own as-of, and freshness shows the age).
 */
import { Clock, Context, Duration, Effect, Layer, Schedule } from "effect"
import { SqlClient } from "effect/sql"
import type { SourceUnavailable } from "../../domain/Errors.ts"
import { Sector } from "../../domain/pack/Datasets.ts"
import { AppConfig } from "../config/AppConfig.ts"
import { PsxPortal } from "../sources/PsxPortal.ts"
import { decodeRows, upsert } from "./Bulk.ts"
import type { StepSummary } from "./Progress.ts"
import {
  announcementRow,
  announcementsTable,
  boardQuoteRow,
  datasetsTable,
  fundamentalsRow,
  fundamentalsTable,
  payoutCoverageRows,
  payoutRows,
  payoutsTable,
  quotesTable,
  securitiesTable,
  securityRow
} from "./Tables.ts"

const PORTAL = "https://dps.psx.com.pk"

export class PortalRefresh extends Context.Service<PortalRefresh, {
  /** One refresh; each source independently, failures reported, not thrown. */
  readonly runOnce: Effect.Effect<ReadonlyArray<StepSummary & { readonly error?: string }>>
}>()("psx/ingest/PortalRefresh") {
  static readonly layer = Layer.effect(
    PortalRefresh,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const portal = yield* PsxPortal
      const provided = <A, E>(e: Effect.Effect<A, E, SqlClient.SqlClient>) => Effect.provideService(e, SqlClient.SqlClient, sql)

      const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms).toISOString())
      /** `fetchedAt`: when the portal's answer arrived; `loaded_at`: when it was written here. */
      const record = (id: string, title: string, path: string, rows: number, skipped: Record<string, number>, fetchedAt: string) =>
        Effect.flatMap(now, (loadedAt) =>
          provided(upsert(datasetsTable, [{
            id, title, source: `PSX data portal GET ${path}`, upstream: `${PORTAL}${path}`, path, repository: "live portal",
            commit: "-", licence: "data © Pakistan Stock Exchange; redistribution restricted", recorded_at: fetchedAt,
            as_of: fetchedAt, retrieved_at: fetchedAt, loaded_at: loadedAt, rows, skipped,
            notes: "read live by the portal refresh", pack_version: null
          }])))

      const step = <A>(
        id: string,
        title: string,
        path: string,
        fetch: Effect.Effect<{ readonly rows: ReadonlyArray<A>; readonly skipped: Readonly<Record<string, number>> }, SourceUnavailable>,
        write: (rows: ReadonlyArray<A>, now: string) => Effect.Effect<number, unknown, SqlClient.SqlClient>
      ) =>
        Effect.gen(function*() {
          const parsed = yield* fetch
          const fetchedAt = yield* now
          const written = yield* sql.withTransaction(provided(Effect.gen(function*() {
            const n = yield* write(parsed.rows, fetchedAt)
            yield* record(id, title, path, n, { ...parsed.skipped }, fetchedAt)
            return n
          })))
          return { dataset: id, read: parsed.rows.length, written, skipped: parsed.skipped }
        }).pipe(
          Effect.catchCause((cause) =>
            Effect.as(
              Effect.logWarning({ msg: "portal refresh step failed; nothing changed", dataset: id, cause: String(cause) }),
              { dataset: id, read: 0, written: 0, skipped: {}, error: String(cause).slice(0, 300) }
            )
          )
        )

      const runOnce = Effect.gen(function*() {
        const sectors = yield* decodeRows(Sector)(sql`select code, name from sectors`).pipe(Effect.orElseSucceed(() => []))
        const maps = {
          codeByName: new Map(sectors.map((s) => [s.name, s.code])),
          nameByCode: new Map(sectors.map((s) => [s.code, s.name]))
        }
        return [
          yield* step("portal_symbols", "Listed securities (live)", "/symbols", portal.symbols, (rows) =>
            upsert(securitiesTable, rows.map((s) => securityRow(s, maps, "portal_symbols")))),
          yield* step("portal_screener", "Screener snapshot (live)", "/screener", portal.screener, (rows, now) =>
            upsert(fundamentalsTable, rows.map((s) => fundamentalsRow(s, now.slice(0, 10), "portal_screener")))),
          yield* step("portal_market_watch", "Delayed market watch (live)", "/market-watch", portal.marketWatch, (rows, now) =>
            upsert(quotesTable, rows.flatMap((r) => {
              const q = boardQuoteRow(r, now, "portal_market_watch")
              return q ? [q] : []
            }))),
          yield* step("portal_payouts", "Announced payouts (live)", "/payouts", portal.marketPayouts, (rows) =>
            Effect.gen(function*() {
              const n = yield* upsert(payoutsTable, payoutRows(rows, "portal_payouts"))
              // Extends coverage back in time only: an earlier recorded start is kept.
              yield* sql.unsafe(
                `INSERT INTO payout_coverage (symbol, coverage, data_coverage_start, dataset)
                 SELECT symbol, coverage, data_coverage_start, dataset
                 FROM jsonb_to_recordset($1::jsonb) AS t(symbol text, coverage text, data_coverage_start date, dataset text)
                 ON CONFLICT (symbol) DO UPDATE SET data_coverage_start = least(payout_coverage.data_coverage_start, excluded.data_coverage_start)`,
                [JSON.stringify(payoutCoverageRows(rows, "portal_payouts"))]
              )
              return n
            })),
          yield* step("portal_announcements", "Company announcements (live)", "/announcements", portal.announcements(), (rows) =>
            upsert(announcementsTable, rows.map((a) => announcementRow(a, "portal_announcements"))))
        ]
      })

      return { runOnce }
    })
  )

  /** Runs the refresh now and every PSX_REFRESH_MINUTES (default 15) while the server runs, if PSX_SOURCE=portal. */
  static readonly scheduled = Layer.effectDiscard(Effect.gen(function*() {
    const config = yield* AppConfig
    if (config.source !== "portal") return
    const refresh = yield* PortalRefresh
    yield* refresh.runOnce.pipe(
      Effect.tap((steps) => Effect.logInfo({ msg: "portal refresh", steps })),
      Effect.repeat(Schedule.spaced(Duration.minutes(config.refreshMinutes))),
      Effect.forkScoped
    )
  }))
}
