/**
 * The crawler's SQL: what it reads back to decide (sector names, stored
 * membership), the provenance row of each live dataset, and its own state
 * (`crawl_state`: last attempt, last success, last error per dataset), so a
 * crawl resumes after a restart and picks the stalest work first.
 */
import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { karachiDate } from "../../domain/market/calendar/Calendar.ts"
import { Sector } from "../../domain/pack/Datasets.ts"
import type { IndexConstituent } from "../../domain/psx/Listing.ts"
import { decodeRows, upsert } from "./Bulk.ts"
import type { Written } from "./Changes.ts"
import type { PortalDataset } from "./DatasetDefinition.ts"
import { datasetsTable, indexMembershipTable } from "./Tables.ts"

export const PORTAL = "https://dps.psx.com.pk"
export const LICENCE = "data © Pakistan Stock Exchange; redistribution restricted without a PSX licence"

export const readSectorMaps = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const sectors = yield* decodeRows(Sector)(sql`select code, name from sectors`)
  return {
    codeByName: new Map(sectors.map((s) => [s.name, s.code])),
    nameByCode: new Map(sectors.map((s) => [s.code, s.name]))
  }
})

/** Extends coverage back in time only: an earlier recorded start is kept. */
export const payoutCoverageUpsert = (rows: ReadonlyArray<Record<string, unknown>>) =>
  Effect.gen(function*() {
    if (rows.length === 0) return
    const sql = yield* SqlClient.SqlClient
    yield* sql.unsafe(
      `INSERT INTO payout_coverage (symbol, coverage, data_coverage_start, dataset)
       SELECT t.symbol, t.coverage, t.data_coverage_start, t.dataset
       FROM jsonb_to_recordset($1::jsonb) AS t(symbol text, coverage text, data_coverage_start date, dataset text)
       LEFT JOIN payout_coverage p ON p.symbol = t.symbol
       WHERE p.symbol IS NULL OR p.data_coverage_start IS NULL OR t.data_coverage_start < p.data_coverage_start
       ON CONFLICT (symbol) DO UPDATE SET data_coverage_start = least(payout_coverage.data_coverage_start, excluded.data_coverage_start)`,
      [JSON.stringify(rows)]
    )
  })

/**
 * Index membership is dated by the day it was read. A new dated set is
 * written only when the constituents differ from the latest stored set, so
 * daily reads of an unchanged index add nothing.
 */
export const writeMembership = (code: string, rows: ReadonlyArray<IndexConstituent>, now: number, dataset: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const stored = yield* decodeRows(Schema.Struct({ symbol: Schema.String }))(sql`
      SELECT symbol FROM index_membership WHERE index_code = ${code}
        AND effective_date = (SELECT max(effective_date) FROM index_membership WHERE index_code = ${code})`)
    const before = new Set(stored.map((r) => r.symbol))
    const same = before.size === rows.length && rows.every((r) => before.has(r.symbol))
    if (same) return { written: 0, unchanged: rows.length } satisfies Written
    const effective_date = karachiDate(now)
    yield* upsert(
      indexMembershipTable,
      rows.map((c) => ({
        index_code: code,
        symbol: c.symbol,
        effective_date,
        weight_pct: c.weightPct ?? null,
        free_float_shares: c.freeFloatShares ?? null,
        market_cap: c.marketCap ?? null,
        dataset
      }))
    )
    return { written: rows.length, unchanged: 0 } satisfies Written
  })

const coverageRow = Schema.Struct({
  rows: Schema.Int,
  symbols: Schema.Int,
  first: Schema.NullOr(Schema.String),
  last: Schema.NullOr(Schema.String)
})

/** The provenance row of a live dataset, with its row count and coverage, after a run that wrote something. */
export const recordProvenance = (
  d: Pick<PortalDataset, "kind" | "title" | "route" | "table" | "dateColumn" | "provenance">,
  fetchedAt: string,
  asOf: string,
  loadedAt: string,
  skipped: Readonly<Record<string, number>>
) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const id = d.provenance?.id ?? `portal_${d.kind}`
    const symbolColumn = d.table === "sectors" ? "code" : "symbol"
    const dates = d.dateColumn
      ? `min(${d.dateColumn})::text AS first, max(${d.dateColumn})::text AS last`
      : "NULL AS first, NULL AS last"
    const [c] = yield* decodeRows(coverageRow)(sql.unsafe(
      `SELECT count(*)::int AS rows, count(DISTINCT ${symbolColumn})::int AS symbols, ${dates} FROM ${d.table} WHERE dataset = $1`,
      [id]
    ))
    const path = d.route.replace(/^POST /, "")
    const owner = d.provenance ?? {
      source: `PSX data portal ${d.route}`,
      upstream: `${PORTAL}${path}`,
      licence: LICENCE,
      notes: "read live by the portal crawler"
    }
    yield* upsert(datasetsTable, [{
      id,
      title: d.title,
      source: owner.source,
      upstream: owner.upstream,
      path,
      repository: d.provenance ? "live feeds" : "live portal",
      commit: "-",
      licence: owner.licence,
      recorded_at: fetchedAt,
      as_of: asOf,
      retrieved_at: fetchedAt,
      loaded_at: loadedAt,
      rows: c?.rows ?? 0,
      skipped,
      notes: owner.notes,
      pack_version: null
    }])
    yield* sql`UPDATE datasets SET coverage_symbols = ${c?.symbols ?? null}, coverage_first = ${c?.first ?? null}::date,
      coverage_last = ${c?.last ?? null}::date WHERE id = ${id}`
  })

export interface Attempt {
  readonly kind: string
  readonly key: string
  readonly at: string
  readonly ok: boolean
  readonly read: number
  readonly written: number
  readonly unchanged: number
  readonly error?: string
}

/** Records a batch of attempts in one statement. */
export const recordAttempts = (attempts: ReadonlyArray<Attempt>) =>
  Effect.gen(function*() {
    if (attempts.length === 0) return
    const sql = yield* SqlClient.SqlClient
    yield* sql.unsafe(
      `INSERT INTO crawl_state (kind, key, attempted_at, succeeded_at, read, written, unchanged, failures, last_error, last_error_at)
       SELECT kind, key, at, CASE WHEN ok THEN at END, read, written, unchanged, CASE WHEN ok THEN 0 ELSE 1 END,
         error, CASE WHEN ok THEN NULL ELSE at END
       FROM jsonb_to_recordset($1::jsonb) AS t(kind text, key text, at timestamptz, ok boolean, read int, written int, unchanged int, error text)
       ON CONFLICT (kind, key) DO UPDATE SET attempted_at = excluded.attempted_at,
         succeeded_at = coalesce(excluded.succeeded_at, crawl_state.succeeded_at),
         read = CASE WHEN excluded.succeeded_at IS NULL THEN crawl_state.read ELSE excluded.read END,
         written = CASE WHEN excluded.succeeded_at IS NULL THEN crawl_state.written ELSE excluded.written END,
         unchanged = CASE WHEN excluded.succeeded_at IS NULL THEN crawl_state.unchanged ELSE excluded.unchanged END,
         failures = CASE WHEN excluded.succeeded_at IS NULL THEN crawl_state.failures + 1 ELSE 0 END,
         last_error = coalesce(excluded.last_error, crawl_state.last_error),
         last_error_at = coalesce(excluded.last_error_at, crawl_state.last_error_at)`,
      [JSON.stringify(attempts.map((a) => ({ ...a, error: a.error ?? null })))]
    )
  })

const keyRow = Schema.Struct({ key: Schema.String })

/**
 * The keys of a per-symbol dataset, stalest first (never fetched, then the
 * oldest success). `dueBefore`: only keys last fetched before that instant,
 * and not failed after it (a failing key waits its turn instead of being
 * retried at every tick). A delisted symbol is left out unless asked for.
 */
export const symbolKeys = (
  kind: string,
  options: {
    readonly symbols?: ReadonlyArray<string>
    readonly dueBefore?: string
    readonly limit?: number
    /** Also symbols gone from the listing (their history can still be completed). */
    readonly includeDelisted?: boolean
  }
) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const only = options.symbols !== undefined && options.symbols.length > 0
    const rows = yield* decodeRows(keyRow)(sql.unsafe(
      `SELECT s.symbol AS key FROM securities s
       LEFT JOIN crawl_state c ON c.kind = $1 AND c.key = s.symbol
       WHERE NOT s.is_debt AND ($5::boolean OR s.delisted_on IS NULL)
         AND ($2::text[] IS NULL OR s.symbol = ANY($2::text[]))
         AND ($3::timestamptz IS NULL OR ((c.succeeded_at IS NULL OR c.succeeded_at < $3::timestamptz)
              AND (c.last_error_at IS NULL OR c.last_error_at < $3::timestamptz)))
       ORDER BY c.succeeded_at NULLS FIRST, c.attempted_at NULLS FIRST, s.symbol
       LIMIT $4`,
      [
        kind,
        only ? options.symbols : null,
        options.dueBefore ?? null,
        options.limit ?? 100_000,
        options.includeDelisted === true
      ]
    ))
    return rows.map((r) => r.key)
  })

const stateRow = Schema.Struct({
  kind: Schema.String,
  keys: Schema.Int,
  succeeded: Schema.Int,
  failing: Schema.Int,
  last_success: Schema.NullOr(Schema.String),
  last_attempt: Schema.NullOr(Schema.String),
  last_error: Schema.NullOr(Schema.String),
  last_error_at: Schema.NullOr(Schema.String)
})
export type CrawlStatus = typeof stateRow.Type

/** Progress and the last error of every dataset kind the crawler has tried. */
export const crawlStatus = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return yield* decodeRows(stateRow)(sql`
    SELECT kind, count(*)::int AS keys, count(succeeded_at)::int AS succeeded,
      count(*) FILTER (WHERE last_error_at IS NOT NULL AND (succeeded_at IS NULL OR last_error_at > succeeded_at))::int AS failing,
      to_char(max(succeeded_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS last_success,
      to_char(max(attempted_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS last_attempt,
      (array_agg(last_error ORDER BY last_error_at DESC NULLS LAST))[1] AS last_error,
      to_char(max(last_error_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS last_error_at
    FROM crawl_state GROUP BY kind ORDER BY kind`)
})
