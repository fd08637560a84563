/**
 * Indices (current level only, no history; constituents with weights) and
 * the market snapshot: index levels, breadth of the latest recorded session,
 * and dataset freshness.
 */
import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { DataNotFound, type SourceUnavailable } from "../../domain/Errors.ts"
import { Source } from "../../domain/market/Schemas.ts"
import type { Freshness } from "./Freshness.ts"
import { num, present, storeUnavailable } from "../db/Rows.ts"
import { Sources } from "./Sources.ts"

const opt = <S extends Schema.Top>(s: S) => Schema.optionalKey(s)

export const IndexLevel = Schema.Struct({
  code: Schema.String,
  name: opt(Schema.String),
  level: opt(Schema.Finite),
  previous: opt(Schema.Finite),
  change: opt(Schema.Finite),
  change_pct: opt(Schema.Finite),
  as_of: opt(Schema.String),
  history: Schema.Literal("none").annotate({ description: "Index levels are current only" }),
  constituents: Schema.Array(Schema.Struct({ symbol: Schema.String, weight_pct: opt(Schema.Finite) })),
  constituents_as_of: opt(Schema.String),
  sources: Schema.Array(Source)
})

export const IndexSnapshot = Schema.Struct({
  indices: Schema.Array(Schema.Struct({ code: Schema.String, level: opt(Schema.Finite), change_pct: opt(Schema.Finite), as_of: opt(Schema.String) })),
  breadth: opt(Schema.Struct({ date: Schema.String, advancers: Schema.Int, decliners: Schema.Int, unchanged: Schema.Int, basis: Schema.String })),
  freshness: Schema.Array(Schema.Struct({ dataset: Schema.String, as_of: Schema.String, age_days: opt(Schema.Int) })),
  quotes: Schema.Literal("delayed")
})

export class MarketIndexes extends Context.Service<MarketIndexes, {
  readonly index: (code: string) => Effect.Effect<typeof IndexLevel.Type, DataNotFound | SourceUnavailable>
  readonly snapshot: (freshness: typeof Freshness.Service) => Effect.Effect<typeof IndexSnapshot.Type, SourceUnavailable>
}>()("psx/market/MarketIndexes") {
  static readonly layer = Layer.effect(
    MarketIndexes,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const sources = yield* Sources

      const index = Effect.fn("MarketIndexes.index")(function*(raw: string) {
        const code = raw.trim().toUpperCase().replace(/[^A-Z0-9]/g, "")
        const [levels, members] = yield* Effect.all([
          sql<Record<string, unknown>>`select code, name, level, previous, as_of::text, dataset from index_levels where code = ${code}`,
          sql<Record<string, unknown>>`
            select symbol, weight_pct, effective_date::text as effective, dataset from index_membership
            where index_code = ${code} order by weight_pct desc nulls last, symbol`
        ], { concurrency: 1 }).pipe(storeUnavailable)
        const l = levels[0]
        if (l === undefined && members.length === 0) return yield* new DataNotFound({ message: `no index ${code} is recorded` })
        const level = num(l?.["level"]), previous = num(l?.["previous"])
        return {
          code,
          history: "none" as const,
          ...present({
            name: l?.["name"] as string | undefined,
            level,
            previous,
            change: level !== undefined && previous !== undefined ? Math.round((level - previous) * 100) / 100 : undefined,
            change_pct: level !== undefined && previous !== undefined ? Math.round((level / previous - 1) * 1_000_000) / 10_000 : undefined,
            as_of: l?.["as_of"] as string | undefined,
            constituents_as_of: members[0]?.["effective"] as string | undefined
          }),
          constituents: members.map((m) => ({ symbol: String(m["symbol"]), ...present({ weight_pct: num(m["weight_pct"]) }) })),
          sources: yield* sources.of([...new Set([l?.["dataset"], members[0]?.["dataset"]].filter((x): x is string => typeof x === "string"))])
        }
      })

      const snapshot = (freshness: typeof Freshness.Service) =>
        Effect.gen(function*() {
          const levels = yield* sql<Record<string, unknown>>`select code, level, previous, as_of::text from index_levels order by code`
            .pipe(storeUnavailable)
          const breadth = yield* sql<Record<string, unknown>>`
            WITH d AS (SELECT max((as_of AT TIME ZONE 'Asia/Karachi')::date) AS day FROM quotes WHERE basis = 'daily_close')
            SELECT d.day::text AS day,
                   count(*) FILTER (WHERE q.change > 0)::int AS up,
                   count(*) FILTER (WHERE q.change < 0)::int AS down,
                   count(*) FILTER (WHERE q.change = 0)::int AS flat
            FROM quotes q, d WHERE q.basis = 'daily_close' AND (q.as_of AT TIME ZONE 'Asia/Karachi')::date = d.day
            GROUP BY d.day`.pipe(storeUnavailable)
          const f = yield* freshness.freshness
          const b = breadth[0]
          return {
            indices: levels.map((l) => {
              const level = num(l["level"]), previous = num(l["previous"])
              return {
                code: String(l["code"]),
                ...present({
                  level,
                  change_pct: level !== undefined && previous !== undefined ? Math.round((level / previous - 1) * 1_000_000) / 10_000 : undefined,
                  as_of: l["as_of"] as string | undefined
                })
              }
            }),
            ...(b
              ? {
                breadth: {
                  date: String(b["day"]),
                  advancers: num(b["up"]) ?? 0,
                  decliners: num(b["down"]) ?? 0,
                  unchanged: num(b["flat"]) ?? 0,
                  basis: "symbols whose latest recorded close is of this date, by sign of change from the previous close"
                }
              }
              : {}),
            freshness: f.datasets.map((d) => ({ dataset: d.dataset, as_of: d.as_of, ...present({ age_days: d.age_days }) })),
            quotes: "delayed" as const
          }
        })

      return { index, snapshot }
    })
  )
}
