/**
 * Delistings from the portal's listing (`GET /symbols`). A listed symbol
 * missing from a listing read is marked delisted with the Karachi day it was
 * first seen gone; its rows (history, payouts, filings) are never deleted.
 * A symbol that comes back is listed again. A read that would delist more
 * than a small share of the universe at once is a truncated or changed
 * page, not a wave of delistings: nothing is marked and it is logged.
 */
import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { decodeRows } from "./Bulk.ts"
import type { Written } from "./Changes.ts"

/** More listed symbols gone at once than this (or 5% of the universe, if larger) is not believed. */
const MOST_GONE_AT_ONCE = 20
const MOST_GONE_SHARE = 0.05

const storedRow = Schema.Struct({ symbol: Schema.String, delisted: Schema.Boolean })

export interface ListingChanges extends Written {
  readonly delisted: ReadonlyArray<string>
  readonly relisted: ReadonlyArray<string>
  readonly skipped: Readonly<Record<string, number>>
}

/** Marks what left the listing `listed` (read on Karachi day `day`) and clears what came back. */
export const applyListing = (listed: ReadonlyArray<string>, day: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const stored = yield* decodeRows(storedRow)(sql`SELECT symbol, delisted_on IS NOT NULL AS delisted FROM securities`)
    const present = new Set(listed)
    const gone = stored.filter((s) => !s.delisted && !present.has(s.symbol)).map((s) => s.symbol)
    const back = stored.filter((s) => s.delisted && present.has(s.symbol)).map((s) => s.symbol)
    const listedBefore = stored.length - stored.filter((s) => s.delisted).length
    if (gone.length > Math.max(MOST_GONE_AT_ONCE, MOST_GONE_SHARE * listedBefore)) {
      yield* Effect.logError({
        msg: "the listing lacks too many listed symbols at once; none marked delisted",
        route: "/symbols",
        gone: gone.length,
        listed: listedBefore
      })
      const why =
        `listing lacks ${gone.length} of ${listedBefore} listed symbols at once (a truncated page?): none marked delisted`
      return {
        written: 0,
        unchanged: 0,
        delisted: [],
        relisted: [],
        skipped: { [why]: gone.length }
      } satisfies ListingChanges
    }
    if (gone.length > 0) {
      yield* sql.unsafe(`UPDATE securities SET delisted_on = $1::date WHERE symbol = ANY($2::text[])`, [day, gone])
    }
    if (back.length > 0) {
      yield* sql.unsafe(`UPDATE securities SET delisted_on = NULL WHERE symbol = ANY($1::text[])`, [back])
    }
    if (gone.length + back.length > 0) {
      yield* Effect.logInfo({ msg: "listing changed", route: "/symbols", delisted: gone, relisted: back, day })
    }
    return {
      written: gone.length + back.length,
      unchanged: 0,
      delisted: gone,
      relisted: back,
      skipped: {}
    } satisfies ListingChanges
  })
