/** Query and path parameter schemas shared by the market endpoints (HTTP and MCP). */
import { Schema, SchemaTransformation } from "effect"
import { fromDay, toDay } from "./Karachi.ts"

/** A date that is on the calendar (no 2026-02-30): its day number names it back. */
export const isCalendarDate = Schema.makeFilter<string>((s) => {
  const day = toDay(s)
  return Number.isFinite(day) && fromDay(day) === s ? undefined : `${s} is not a calendar date`
})

export const DateParam = Schema.String.pipe(
  Schema.check(Schema.isPattern(/^\d{4}-\d{2}-\d{2}$/u)),
  Schema.check(isCalendarDate)
).annotate({ description: "A calendar date, YYYY-MM-DD" })

/** A query flag: the text true or false, decoded to a boolean. */
export const BoolParam = Schema.Literals(["true", "false"]).pipe(
  Schema.decodeTo(
    Schema.Boolean,
    SchemaTransformation.transform({
      decode: (s: "true" | "false") => s === "true",
      encode: (b: boolean) => (b ? "true" as const : "false" as const)
    })
  )
).annotate({ description: "true or false" })

export const limitParam = (max: number, fallback: number) =>
  Schema.optional(
    Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: max })).annotate({
      description: `Page size, 1 to ${max}; default ${fallback}`
    })
  )

export const Cursor = Schema.optional(Schema.String.annotate({ description: "The `next_cursor` of the previous page" }))

export const SymbolPath = {
  symbol: Schema.String.annotate({ description: "A PSX ticker, e.g. HUBC (case-insensitive)" })
}
export const SymPath = { sym: Schema.String.annotate({ description: "A PSX ticker, e.g. HUBC (case-insensitive)" }) }
