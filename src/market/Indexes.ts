/**
 * Indices (current level only, no history; constituents with weights) and
 * the market snapshot: index levels, breadth of the latest recorded session,
 * and dataset freshness.
 */
import { Context, Effect, Layer, Schema } from "effect"
import { DataNotFound, type SourceUnavailable } from "../../domain/Errors.ts"
import { Source } from "../../domain/market/Schemas.ts"
import type { Freshness } from "./Freshness.ts"
import { karachiDate } from "../../domain/market/Calendar.ts"
import { MarketReadModel } from "./ReadModel.ts"
import { sourcesOf } from "./Sources.ts"

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
      const model = yield* MarketReadModel

      const index = Effect.fn("MarketIndexes.index")(function*(raw: string) {
        const snap = yield* model.snapshot
        const code = raw.trim().toUpperCase().replace(/[^A-Z0-9]/g, "")
        const l = snap.indexLevels.find((x) => x.code === code)
        const members = snap.indexMembers.get(code) ?? []
        if (l === undefined && members.length === 0) return yield* new DataNotFound({ message: `no index ${code} is recorded` })
        const level = l?.level, previous = l?.previous
        return {
          code,
          history: "none" as const,
          ...(l !== undefined ? { name: l.name, level: l.level, as_of: l.as_of } : {}),
          ...(previous !== undefined ? { previous } : {}),
          ...(level !== undefined && previous !== undefined
            ? { change: Math.round((level - previous) * 100) / 100, change_pct: Math.round((level / previous - 1) * 1_000_000) / 10_000 }
            : {}),
          ...(members[0] !== undefined ? { constituents_as_of: members[0].effective_date } : {}),
          constituents: members.map((m) => ({ symbol: m.symbol, ...(m.weight_pct !== undefined ? { weight_pct: m.weight_pct } : {}) })),
          sources: sourcesOf(snap, [...(l ? [l.dataset] : []), ...(members[0] ? [members[0].dataset] : [])])
        }
      })

      const snapshot = (freshness: typeof Freshness.Service) =>
        Effect.gen(function*() {
          const snap = yield* model.snapshot
          const f = yield* freshness.freshness
          let day = ""
          for (const d of snap.symbols.values()) {
            const q = d.quote
            if (q?.basis === "daily_close" && karachiDate(Date.parse(q.as_of)) > day) day = karachiDate(Date.parse(q.as_of))
          }
          let up = 0, down = 0, flat = 0
          for (const d of snap.symbols.values()) {
            const q = d.quote
            if (q?.basis !== "daily_close" || q.change === undefined || karachiDate(Date.parse(q.as_of)) !== day) continue
            if (q.change > 0) up++
            else if (q.change < 0) down++
            else flat++
          }
          return {
            indices: snap.indexLevels.map((l) => ({
              code: l.code,
              level: l.level,
              as_of: l.as_of,
              ...(l.previous !== undefined ? { change_pct: Math.round((l.level / l.previous - 1) * 1_000_000) / 10_000 } : {})
            })),
            ...(day !== ""
              ? {
                breadth: {
                  date: day,
                  advancers: up,
                  decliners: down,
                  unchanged: flat,
                  basis: "symbols whose latest recorded close is of this date, by sign of change from the previous close"
                }
              }
              : {}),
            freshness: f.datasets.map((d) => ({ dataset: d.dataset, as_of: d.as_of, ...(d.age_days !== undefined ? { age_days: d.age_days } : {}) })),
            quotes: "delayed" as const
          }
        })

      return { index, snapshot }
    })
  )
}
