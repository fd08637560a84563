/**
 * A portfolio's settings (GET and PUT /v1/me/settings), one row per user in
 * `portfolio_settings` (migration 0025); a user with no row has the defaults
 * (auto-recording off).
 *
 * Turning auto-recording on keeps the date it was turned on (Asia/Karachi) and
 * the credential that did it; turning it on again while on keeps both, and
 * turning it off clears them.
 *
 * Owns: the table. Does not own: what auto-recording does (AutoRecord).
 */
import { Clock, Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import type { SourceUnavailable } from "../../../domain/Errors.ts"
import { karachiDate } from "../../../domain/Karachi.ts"
import { storeUnavailable } from "../../db/Rows.ts"

export interface SettingsRow {
  readonly auto_record_entitlements: boolean
  readonly auto_record_since?: string
  readonly auto_record_key_id?: string
  readonly updated_at?: string
}

/** A portfolio that opted in, as the sweep reads it. */
export interface OptedIn {
  readonly user_id: string
  readonly since: string
  readonly key_id: string
}

type Row = { auto_record_entitlements: boolean; since: string | null; key_id: string | null; updated_at: string }

const toSettings = (r: Row | undefined): SettingsRow =>
  r === undefined
    ? { auto_record_entitlements: false }
    : {
      auto_record_entitlements: r.auto_record_entitlements,
      ...(r.since !== null ? { auto_record_since: r.since } : {}),
      ...(r.key_id !== null ? { auto_record_key_id: r.key_id } : {}),
      updated_at: r.updated_at
    }

const COLUMNS =
  `auto_record_entitlements, to_char(auto_record_since, 'YYYY-MM-DD') AS since, auto_record_key_id AS key_id,
  to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at`

const UPSERT =
  `INSERT INTO portfolio_settings AS s (user_id, auto_record_entitlements, auto_record_since, auto_record_key_id, updated_at)
  VALUES ($1, $2, CASE WHEN $2 THEN $3::date END, CASE WHEN $2 THEN $4 END, $5::timestamptz)
  ON CONFLICT (user_id) DO UPDATE SET
    auto_record_since = CASE WHEN s.auto_record_entitlements AND EXCLUDED.auto_record_entitlements THEN s.auto_record_since
                             ELSE EXCLUDED.auto_record_since END,
    auto_record_key_id = CASE WHEN s.auto_record_entitlements AND EXCLUDED.auto_record_entitlements THEN s.auto_record_key_id
                              ELSE EXCLUDED.auto_record_key_id END,
    auto_record_entitlements = EXCLUDED.auto_record_entitlements,
    updated_at = EXCLUDED.updated_at
  RETURNING ${COLUMNS}`

export class PortfolioSettings extends Context.Service<PortfolioSettings, {
  readonly get: (userId: string) => Effect.Effect<SettingsRow, SourceUnavailable>
  /** Sets auto-recording on or off for `userId`, `keyId` being the credential that asked. */
  readonly setAutoRecord: (userId: string, keyId: string, on: boolean) => Effect.Effect<SettingsRow, SourceUnavailable>
  /** A page of the portfolios that opted in, by user id after `after`. */
  readonly optedIn: (after: string, limit: number) => Effect.Effect<ReadonlyArray<OptedIn>, SourceUnavailable>
}>()("psx/ledger/PortfolioSettings") {
  static readonly layer = Layer.effect(
    PortfolioSettings,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient

      const get = Effect.fn("PortfolioSettings.get")(function*(userId: string) {
        const rows = yield* sql.unsafe<Row>(`SELECT ${COLUMNS} FROM portfolio_settings WHERE user_id = $1`, [userId])
          .pipe(storeUnavailable)
        return toSettings(rows[0])
      })

      const setAutoRecord = Effect.fn("PortfolioSettings.setAutoRecord")(
        function*(userId: string, keyId: string, on: boolean) {
          const now = yield* Clock.currentTimeMillis
          const rows = yield* sql.unsafe<Row>(UPSERT, [
            userId,
            on,
            karachiDate(now),
            keyId,
            new Date(now).toISOString()
          ]).pipe(storeUnavailable)
          return toSettings(rows[0])
        }
      )

      const optedIn = Effect.fn("PortfolioSettings.optedIn")(function*(after: string, limit: number) {
        return yield* sql.unsafe<OptedIn>(
          `SELECT user_id, to_char(auto_record_since, 'YYYY-MM-DD') AS since, auto_record_key_id AS key_id FROM portfolio_settings
           WHERE auto_record_entitlements AND user_id > $1 ORDER BY user_id LIMIT $2`,
          [after, limit]
        ).pipe(storeUnavailable)
      })

      return { get, setAutoRecord, optedIn }
    })
  )
}
