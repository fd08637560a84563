/**
 * The holdings projection: one row per (portfolio, symbol), rebuilt from the
 * stream's events inside the append's transaction, and rebuildable from the
 * events at any time (a rebuild must equal the live rows).
 */
import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"
import type { StoredEvent } from "../../../domain/ledger/Events.ts"
import { type Entry, type Position, replay } from "../../../domain/ledger/Replay.ts"
import { checkDecisions } from "../../../domain/ledger/ReplayCheck.ts"

export const toEntries = (events: ReadonlyArray<StoredEvent>): ReadonlyArray<Entry> =>
  events.map((e) => ({ event_id: e.event_id, version: e.version, effective_date: e.effective_date, event: e.event }))

/** The first stored event the decision rules would not have accepted (for verify), or undefined. */
export const decisionFailure = (events: ReadonlyArray<StoredEvent>) => checkDecisions(toEntries(events))

/** The latest effective date among events. */
export const lastEffectiveOf = (events: ReadonlyArray<StoredEvent>) =>
  events.reduce((m, e) => (e.effective_date > m ? e.effective_date : m), "")

/** Positions from events (a fresh replay). */
export const positionsOf = (events: ReadonlyArray<StoredEvent>): ReadonlyArray<Position> => {
  const r = replay(toEntries(events))
  return r._tag === "Ok" ? [...r.state.values()].sort((a, b) => a.symbol.localeCompare(b.symbol)) : []
}

/**
 * The statement parts that write positions: `p`, the positions of a jsonb parameter, and `up`, their upsert into
 * `holdings`. Shared by the append (EventStore) and a rebuild; the arguments are the placeholders to use.
 */
export const holdingsUpsert = (positions: string, streamId: string, version: string) =>
  `p AS (
  SELECT * FROM jsonb_to_recordset(${positions}::jsonb) AS t(symbol text, quantity numeric, cost numeric, realized_pnl numeric,
    dividends_gross numeric, dividends_net numeric, tax_withheld numeric, fractional_entitlements numeric)
), up AS (
  INSERT INTO holdings (stream_id, symbol, quantity, cost, realized_pnl, dividends_gross, dividends_net, tax_withheld,
                        fractional_entitlements, as_of_version)
  SELECT ${streamId}, symbol, quantity, cost, realized_pnl, dividends_gross, dividends_net, tax_withheld, fractional_entitlements,
    ${version} FROM p
  ON CONFLICT (stream_id, symbol) DO UPDATE SET quantity = excluded.quantity, cost = excluded.cost,
    realized_pnl = excluded.realized_pnl, dividends_gross = excluded.dividends_gross,
    dividends_net = excluded.dividends_net, tax_withheld = excluded.tax_withheld,
    fractional_entitlements = excluded.fractional_entitlements, as_of_version = excluded.as_of_version
)`

/** Writes the stream's positions (replacing what was there): with its last event, the state appends decide from. */
export const writeHoldings = (streamId: string, events: ReadonlyArray<StoredEvent>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const positions = positionsOf(events)
    const version = events.length > 0 ? events[events.length - 1]!.version : 0
    // One statement: upsert every position, drop rows of symbols no longer in the replay.
    yield* sql.unsafe(
      `WITH ${holdingsUpsert("$1", "$2", "$3")}
       DELETE FROM holdings WHERE stream_id = $2 AND symbol NOT IN (SELECT symbol FROM p)`,
      [JSON.stringify(positions), streamId, version]
    )
    return positions
  })

/** The columns `PositionRow` decodes (numeric as text). */
export const HOLDING_COLUMNS = `symbol, quantity::text, cost::text, realized_pnl::text, dividends_gross::text,
  dividends_net::text, tax_withheld::text, fractional_entitlements::text`

const PositionRow = Schema.Struct({
  symbol: Schema.String,
  quantity: Schema.FiniteFromString,
  cost: Schema.FiniteFromString,
  realized_pnl: Schema.FiniteFromString,
  dividends_gross: Schema.FiniteFromString,
  dividends_net: Schema.FiniteFromString,
  tax_withheld: Schema.FiniteFromString,
  fractional_entitlements: Schema.FiniteFromString
})
/** Holdings rows (selected with `HOLDING_COLUMNS`, plus any other columns) as positions; a bad row is a defect. */
export const decodePositions = (rows: ReadonlyArray<unknown>) =>
  Effect.orDie(Schema.decodeUnknownEffect(Schema.Array(PositionRow))(rows))

/** The stored positions of a stream. */
export const readHoldings = (streamId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql.unsafe(`SELECT ${HOLDING_COLUMNS} FROM holdings WHERE stream_id = $1 ORDER BY symbol`, [
      streamId
    ])
    return yield* decodePositions(rows)
  })

/** Two position lists are equal to the rounding the projection stores. */
export const samePositions = (a: ReadonlyArray<Position>, b: ReadonlyArray<Position>) =>
  a.length === b.length &&
  a.every((p, i) => {
    const q = b[i]!
    const close = (x: number, y: number) => Math.abs(x - y) < 1e-4
    return p.symbol === q.symbol && close(p.quantity, q.quantity) && close(p.cost, q.cost) &&
      close(p.realized_pnl, q.realized_pnl) && close(p.dividends_net, q.dividends_net) &&
      close(p.dividends_gross, q.dividends_gross) && close(p.tax_withheld, q.tax_withheld) &&
      close(p.fractional_entitlements, q.fractional_entitlements)
  })
