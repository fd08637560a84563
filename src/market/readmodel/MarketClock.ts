/**
 * The market clock of point-in-time reads (`as_of`): every version of a
 * market row (the current one and those kept in `market_history`, and every
 * recorded screener snapshot) counts from when its figures became public, as
 * its recording proves it (`EVIDENCE`), and never later than its retrieval.
 * A table's rows at T are, per key, the version that became public last by T.
 * A later version of an event-dated row (a close, a filing, a payout: a
 * restatement or correction) counts from its own retrieval, the only evidence
 * of it; a later version of a self-dated row (a snapshot) from its own date.
 *
 * Owns: the SQL of the market clock. T reaches SQL only as the ISO text of a
 * Date (`toISOString`), so it is inlined safely.
 */
import { HISTORY_TABLES } from "../../../migrations/0026_market_history.ts"
import type { Source } from "./MarketStore.ts"

/** An instant as SQL text (from a Date's ISO form only). */
export const instant = (at: number) => `'${new Date(at).toISOString()}'::timestamptz`

/** The close of a Karachi trading day (15:30; 16:30 on Fridays, MarketHours.ts `closeMinutes`). */
export const closeOf = (date: string) =>
  `(((${date})::date)::timestamp + CASE WHEN extract(isodow FROM (${date})::date) = 5 THEN interval '16 hours 30 minutes' ` +
  `ELSE interval '15 hours 30 minutes' END) AT TIME ZONE 'Asia/Karachi'`
const endOfDay = (date: string) => `((((${date})::date) + 1)::timestamp AT TIME ZONE 'Asia/Karachi')`
/** The retrieval of the page or file a row was read from (a dataset's `as_of` for snapshot recordings). */
const pageRetrieval = `market_retrieval((SELECT d.as_of FROM datasets d WHERE d.id = v.dataset))`

/** A symbol's first recorded figure: its first close, screener snapshot or company page. */
const firstFigure = `least(
  (SELECT ${closeOf("min(p.date)")} FROM daily_prices p WHERE p.symbol = v.symbol),
  (SELECT min(market_retrieval(f.as_of)) FROM fundamentals_snapshots f WHERE f.symbol = v.symbol),
  (SELECT min(c.as_of) FROM company_profiles c WHERE c.symbol = v.symbol))`

interface Evidence {
  /** When a version's figures became public (SQL over the version `v`; NULL: its retrieval). */
  readonly at: string
  /** Whether a later version carries its own date (a snapshot), or is a restatement known from its retrieval. */
  readonly selfDated: boolean
}

/** Each market table's evidence of publication. */
export const EVIDENCE: Readonly<Record<string, Evidence>> = {
  datasets: { at: "NULL", selfDated: true },
  // The sector list is reference data (codes and names), not a dated figure.
  sectors: { at: "'-infinity'::timestamptz", selfDated: true },
  securities: { at: firstFigure, selfDated: true },
  // The end of the effective day: a list recorded on its effective day is not known before it was retrieved.
  index_membership: { at: endOfDay("v.effective_date"), selfDated: true },
  index_levels: { at: closeOf("v.as_of"), selfDated: true },
  index_closes: { at: closeOf("v.date"), selfDated: false },
  daily_prices: { at: closeOf("v.date"), selfDated: false },
  price_disagreements: { at: "NULL", selfDated: true },
  quotes: { at: "v.as_of", selfDated: true },
  fundamentals: { at: "market_retrieval(v.as_of)", selfDated: true },
  company_profiles: { at: "v.as_of", selfDated: true },
  financial_lines: { at: pageRetrieval, selfDated: false },
  company_ratios: { at: pageRetrieval, selfDated: false },
  payouts: { at: "v.announced_at", selfDated: false },
  payout_coverage: { at: pageRetrieval, selfDated: true },
  corporate_actions: { at: closeOf("v.ex_date"), selfDated: false },
  announcements: { at: `coalesce(v.published_at, ${endOfDay("v.published_on")})`, selfDated: false },
  news_items: { at: "v.published_at", selfDated: false }
}

/** Every version of a table's rows, with its retrieval (`vk`). */
const versionsOf = (table: string) =>
  `SELECT x.*, x.known_at AS vk FROM ${table} x
   UNION ALL SELECT r.*, h.known_at FROM market_history h CROSS JOIN LATERAL jsonb_populate_record(NULL::${table}, h.row) r
    WHERE h.tbl = '${table}'` +
  // Every recorded screener snapshot is a version of the symbol's fundamentals (its current one is the table's own row).
  (table !== "fundamentals" ? "" : `
   UNION ALL SELECT r.*, d.known_at FROM fundamentals_snapshots s JOIN datasets d ON d.id = s.dataset
    CROSS JOIN LATERAL jsonb_populate_record(NULL::fundamentals, to_jsonb(s)) r
    WHERE NOT EXISTS (SELECT 1 FROM fundamentals f WHERE f.symbol = s.symbol AND f.dataset = s.dataset)`)

/** A table's rows as the market knew them at `at`: per key, the version public last by then. */
export const versionsKnownAt = (table: string, at: number, where = "true") => {
  const key = HISTORY_TABLES[table]!.join(", ")
  const evidence = EVIDENCE[table]!
  const first = evidence.selfDated ? "true" : `v.vk = min(v.vk) OVER (PARTITION BY ${key})`
  return `(SELECT DISTINCT ON (${key}) w.* FROM (
      SELECT v.*, CASE WHEN ${first} THEN least(v.vk, ${evidence.at}) ELSE v.vk END AS market_from
      FROM (${versionsOf(table)}) v WHERE ${where}
    ) w WHERE w.market_from <= ${instant(at)}
    ORDER BY ${key}, w.market_from DESC, w.vk DESC)`
}

/**
 * Every market table as the market knew it at `at`. Datasets are every one recorded (a figure public by T may be
 * proved by a recording retrieved later; MarketClockRows.ts trims what a dataset row says about later days).
 */
export const marketSource = (at: number): Source => (table) =>
  HISTORY_TABLES[table] === undefined || table === "datasets" ? table : `${versionsKnownAt(table, at)} AS ${table}`
