/**
 * The stored rows an audit reads: a stream's events from a version on, the
 * stored hashes at given versions (what checkpoints are checked against),
 * and every live holding by stream.
 */
import { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import type { Position } from "../../../domain/ledger/Decider.ts"
import { decodePositions, HOLDING_COLUMNS } from "../portfolio/Projection.ts"
import { COLUMNS, eventRows } from "./StoredRows.ts"

export const auditRows = (sql: SqlClient.SqlClient) => {
  const rowsAfter = (streamId: string, fromVersion: number) =>
    Effect.flatMap(
      sql.unsafe(`SELECT ${COLUMNS} FROM events WHERE stream_id = $1 AND version >= $2 ORDER BY version`, [
        streamId,
        fromVersion
      ]),
      eventRows
    )

  /** Stored hashes at given versions of a stream (what its checkpoints are checked against). */
  const hashesAt = (streamId: string, versions: ReadonlyArray<number>) =>
    Effect.map(
      sql.unsafe<{ version: number; hash: string; event_id: string; position: string }>(
        `SELECT version, hash, event_id, position::text AS position FROM events WHERE stream_id = $1 AND version = ANY($2::int[])`,
        [streamId, `{${versions.join(",")}}`]
      ),
      (rows) =>
        new Map(
          rows.map((
            r
          ) => [`${streamId}/${r.version}`, { hash: r.hash, event_id: r.event_id, position: Number(r.position) }])
        )
    )

  /** Every live holding, by stream. */
  const liveHoldings = Effect.gen(function*() {
    const rows = yield* sql.unsafe<{ stream_id: string }>(
      `SELECT stream_id, ${HOLDING_COLUMNS} FROM holdings ORDER BY stream_id, symbol`
    )
    const positions = yield* decodePositions(rows)
    const live = new Map<string, Array<Position>>()
    rows.forEach((r, i) => {
      const list = live.get(r.stream_id)
      if (list) list.push(positions[i]!)
      else live.set(r.stream_id, [positions[i]!])
    })
    return live
  })

  return { rowsAfter, hashesAt, liveHoldings }
}
export type AuditRows = ReturnType<typeof auditRows>
