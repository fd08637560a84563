/**
 * The screen request (SPEC 2.2 body, 4.4 query parameters): one Schema for
 * the POST body, `ScreenQuery` for the GET query string (strings → numbers,
 * booleans, lists) decoding to the same `ScreenRequest`, and strict decoders
 * that reject unknown fields and wrong types naming the field. Field names
 * and meanings: see `descriptions` below; the matching rules are at `screen` (Screener.ts).
 */
import { Result, Schema, SchemaIssue, SchemaTransformation } from "effect"
import { SecurityType } from "./AnalyticsSchemas.ts"

export const SCREENER_DEFAULT_LIMIT = 50
export const SCREENER_MAX_LIMIT = 200

/**
 * A filter's number: finite and at most 10^15 either way (above the market
 * cap of the whole exchange in rupees), so a bound no figure can reach is
 * refused rather than read as "no filter".
 */
export const SCREENER_NUMBER_BOUND = 1e15
const FilterNumber = Schema.Finite.check(
  Schema.isBetween({ minimum: -SCREENER_NUMBER_BOUND, maximum: SCREENER_NUMBER_BOUND })
)
const num = (description: string) => Schema.optionalKey(FilterNumber.annotate({ description }))
const Limit = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: SCREENER_MAX_LIMIT })).annotate({
  description: `Page size, 1 to ${SCREENER_MAX_LIMIT}; default ${SCREENER_DEFAULT_LIMIT}`
})
const DrawdownMode = Schema.Literals(["any", "all"]).annotate({
  description: "OR (any) or AND (all) between the two drawdown gates; default any"
})
const descriptions = {
  dividend_yield_min: "Minimum trailing dividend yield, percent",
  daily_change_max: "Change percent at or below this; 0 means at or below the previous close",
  daily_change_min: "Change percent at or above this",
  drawdown_5d_min: "At least this many percent below the 5-session high",
  drawdown_20d_min: "At least this many percent below the 20-session high",
  pe_max: "Maximum trailing P/E",
  pe_min: "Minimum trailing P/E",
  market_cap_min: "Minimum market cap, rupees",
  market_cap_max: "Maximum market cap, rupees",
  min_value_traded: "Minimum rupees traded in the quote's session",
  min_avg_volume_30d: "Minimum average shares traded per session over 30 sessions",
  min_avg_value_traded_30d: "Minimum average rupees traded per session over 30 sessions",
  free_float_min_pct: "Minimum free float, percent of shares outstanding",
  free_float_min_shares: "Minimum free-float shares",
  sectors: "Sector codes or names (case-insensitive); a security in any of them matches",
  inside_kse100: "true: KSE-100 members only; false: non-members only; null or absent: no filter",
  security_types: "Security types: equity, etf, debt, right, preference, other",
  exclude_ex_dividend: "true leaves out securities on an ex-dividend day and those whose state is undetermined",
  cursor: "The `next_cursor` of the previous page"
} as const
const numberFields = [
  "dividend_yield_min",
  "daily_change_max",
  "daily_change_min",
  "drawdown_5d_min",
  "drawdown_20d_min",
  "pe_max",
  "pe_min",
  "market_cap_min",
  "market_cap_max",
  "min_value_traded",
  "min_avg_volume_30d",
  "min_avg_value_traded_30d",
  "free_float_min_pct",
  "free_float_min_shares"
] as const
export type NumberField = typeof numberFields[number]

/** The screen request: the POST body, and what the GET query decodes to. */
export const ScreenRequest = Schema.Struct({
  dividend_yield_min: num(descriptions.dividend_yield_min),
  daily_change_max: num(descriptions.daily_change_max),
  daily_change_min: num(descriptions.daily_change_min),
  drawdown_5d_min: num(descriptions.drawdown_5d_min),
  drawdown_20d_min: num(descriptions.drawdown_20d_min),
  drawdown_mode: Schema.optionalKey(DrawdownMode),
  pe_max: num(descriptions.pe_max),
  pe_min: num(descriptions.pe_min),
  market_cap_min: num(descriptions.market_cap_min),
  market_cap_max: num(descriptions.market_cap_max),
  min_value_traded: num(descriptions.min_value_traded),
  min_avg_volume_30d: num(descriptions.min_avg_volume_30d),
  min_avg_value_traded_30d: num(descriptions.min_avg_value_traded_30d),
  free_float_min_pct: num(descriptions.free_float_min_pct),
  free_float_min_shares: num(descriptions.free_float_min_shares),
  sectors: Schema.optionalKey(Schema.Array(Schema.String).annotate({ description: descriptions.sectors })),
  inside_kse100: Schema.optionalKey(
    Schema.NullOr(Schema.Boolean).annotate({ description: descriptions.inside_kse100 })
  ),
  security_types: Schema.optionalKey(Schema.Array(SecurityType).annotate({ description: descriptions.security_types })),
  exclude_ex_dividend: Schema.optionalKey(Schema.Boolean.annotate({ description: descriptions.exclude_ex_dividend })),
  limit: Schema.optionalKey(Limit),
  cursor: Schema.optionalKey(Schema.String.annotate({ description: descriptions.cursor }))
})
export type ScreenRequest = typeof ScreenRequest.Type

// ---------------------------------------------------------- query string form

// Each query parameter's description sits on its string (encoded) side, which the OpenAPI document shows.
const numberParam = (description: string) =>
  Schema.String.check(Schema.isPattern(/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/u, { expected: "a number" }))
    .annotate({ description })
    .pipe(Schema.decodeTo(FilterNumber, SchemaTransformation.transform({ decode: Number, encode: String })))
const LimitParam = Schema.String.check(Schema.isPattern(/^\d+$/u, { expected: "a whole number" }))
  .annotate({ description: `Page size, 1 to ${SCREENER_MAX_LIMIT}; default ${SCREENER_DEFAULT_LIMIT}` })
  .pipe(Schema.decodeTo(Limit, SchemaTransformation.transform({ decode: Number, encode: String })))
const BooleanParam = Schema.Literals(["true", "false"]).annotate({ description: descriptions.exclude_ex_dividend })
  .pipe(
    Schema.decodeTo(
      Schema.Boolean,
      SchemaTransformation.transform({
        decode: (s) => s === "true",
        encode: (b) => (b ? "true" as const : "false" as const)
      })
    )
  )
const NullableBooleanParam = Schema.Literals(["true", "false", "null"]).annotate({
  description: descriptions.inside_kse100
}).pipe(
  Schema.decodeTo(
    Schema.NullOr(Schema.Boolean),
    SchemaTransformation.transform({
      decode: (s) => (s === "null" ? null : s === "true"),
      encode: (b) => (b === null ? "null" as const : b ? "true" as const : "false" as const)
    })
  )
)
/** `a,b` or a repeated parameter (`x=a&x=b`): a list, blanks dropped. */
const listParam = <T extends Schema.Top>(item: T, description: string) =>
  Schema.Union([Schema.String, Schema.Array(Schema.String)]).annotate({
    description: `${description} (comma-separated or repeated)`
  }).pipe(
    Schema.decodeTo(
      Schema.Array(Schema.String),
      SchemaTransformation.transform<ReadonlyArray<string>, string | ReadonlyArray<string>>({
        decode: (v) =>
          (typeof v === "string" ? [v] : v).flatMap((s) => s.split(",")).map((s) => s.trim()).filter((s) =>
            s.length > 0
          ),
        encode: (a: ReadonlyArray<string>) => a.join(",")
      })
    ),
    Schema.decodeTo(Schema.Array(item))
  )

const queryNumbers = Object.fromEntries(
  numberFields.map((k) => [k, Schema.optionalKey(numberParam(descriptions[k]))])
) as {
  readonly [K in NumberField]: Schema.optionalKey<ReturnType<typeof numberParam>>
}

/** The GET query form of the same request: strings → numbers, booleans, lists. */
export const ScreenQuery = Schema.Struct({
  ...queryNumbers,
  drawdown_mode: Schema.optionalKey(DrawdownMode),
  sectors: Schema.optionalKey(listParam(Schema.String, descriptions.sectors)),
  inside_kse100: Schema.optionalKey(NullableBooleanParam),
  security_types: Schema.optionalKey(listParam(SecurityType, descriptions.security_types)),
  exclude_ex_dividend: Schema.optionalKey(BooleanParam),
  limit: Schema.optionalKey(LimitParam),
  cursor: Schema.optionalKey(Schema.String.annotate({ description: descriptions.cursor }))
})

const strict = { onExcessProperty: "error", errors: "first" } as const
const decodeBody = Schema.decodeUnknownResult(ScreenRequest, strict)
const decodeQuery = Schema.decodeUnknownResult(ScreenQuery, strict)
const issues = SchemaIssue.makeFormatterStandardSchemaV1()

/** Why a request was rejected: the offending field and what was wrong with it. */
export interface ScreenRequestError {
  readonly field?: string
  readonly message: string
}
const explain = (e: Schema.SchemaError): ScreenRequestError => {
  const first = issues(e.issue).issues[0]
  const field = first?.path?.map((p) => String(typeof p === "object" ? p.key : p)).join(".")
  const what = first?.message === "Unexpected key" || first?.message === "Expected no excess property"
    ? "unknown field"
    : first?.message ?? e.message
  return field ? { field, message: `${field}: ${what}` } : { message: what }
}
/** Decodes a POST body; a failure names the offending field (for 400 INVALID_REQUEST). */
export const decodeScreenBody = (u: unknown): Result.Result<ScreenRequest, ScreenRequestError> =>
  Result.mapError(decodeBody(u), explain)
/** Decodes GET query parameters; a failure names the offending field (for 400 INVALID_REQUEST). */
export const decodeScreenQuery = (u: unknown): Result.Result<ScreenRequest, ScreenRequestError> =>
  Result.mapError(decodeQuery(u), explain)
