/** Query and path parameter schemas shared by the market endpoints (HTTP and MCP). */
import { Schema } from "effect"

export const DateParam = Schema.String.pipe(
  Schema.check(Schema.isPattern(/^\d{4}-\d{2}-\d{2}$/u)),
  Schema.check(Schema.makeFilter((s: string) => {
    const d = new Date(s + "T00:00:00Z")
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s ? undefined : `${s} is not a calendar date`
  }))
).annotate({ description: "A calendar date, YYYY-MM-DD" })

export const limitParam = (max: number, fallback: number) =>
  Schema.optional(
    Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: max })).annotate({
      description: `Page size, 1 to ${max}; default ${fallback}`
    })
  )

export const Cursor = Schema.optional(Schema.String.annotate({ description: "The `next_cursor` of the previous page" }))

export const SymbolPath = { symbol: Schema.String.annotate({ description: "A PSX ticker, e.g. HUBC (case-insensitive)" }) }
export const SymPath = { sym: Schema.String.annotate({ description: "A PSX ticker, e.g. HUBC (case-insensitive)" }) }
