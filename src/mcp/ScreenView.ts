/**
 * screen_stocks' own `sort` and `fields`: the screener route answers its matches by symbol, a page at a time;
 * with `sort` the tool asks it for one page of up to SORT_POOL matches, orders them by the figure named
 * (`-` first: descending; an unknown figure last, never as 0), and gives the first `limit`. A screen of more
 * matches than that is refused, naming how to narrow it. `fields` keeps only those fields of each item
 * (symbol always). Pure functions over the route's body.
 */
import { ScreenFigures } from "../../domain/market/analytics/AnalyticsSchemas.ts"
import { SCREENER_DEFAULT_LIMIT, SCREENER_MAX_LIMIT } from "../../domain/market/analytics/ScreenRequest.ts"

type Json = { readonly [key: string]: unknown }

/** The most matches a sorted screen orders (the route's largest page). */
export const SORT_POOL = SCREENER_MAX_LIMIT

const FIGURES: ReadonlyArray<string> = Object.keys(ScreenFigures.fields)

export const SCREEN_OWN_ARGUMENTS = {
  sort: {
    type: "string",
    description:
      `An item field to order by (e.g. dividend_yield_pct, -market_cap for descending); unknown values last. At most ${SORT_POOL} matches`
  },
  fields: { type: "array", items: { type: "string" }, description: "Only these item fields (symbol always)" }
} as const

/** The route's arguments: with `sort`, the whole pool from the first match. */
export const prepareScreen = (args: Json): Json =>
  typeof args["sort"] === "string" ? { ...args, limit: SORT_POOL, cursor: undefined } : args

const valueOf = (item: Json, field: string) => {
  const value = item[field]
  return typeof value === "number" || typeof value === "string" ? value : undefined
}

const sorted = (items: ReadonlyArray<Json>, sort: string) => {
  const descending = sort.startsWith("-")
  const field = sort.replace(/^[-+]/, "")
  return [...items].sort((a, b) => {
    const x = valueOf(a, field), y = valueOf(b, field)
    if (x === undefined || y === undefined) return x === y ? 0 : x === undefined ? 1 : -1
    const order = x < y ? -1 : x > y ? 1 : 0
    return descending ? -order : order
  })
}

/** The screen as asked: sorted and cut to `limit` when `sort` is given, each item cut to `fields`; or why not. */
export const screenView = (record: Json, args: Json): Json | string => {
  const sort = typeof args["sort"] === "string" ? args["sort"] : undefined
  const fields = Array.isArray(args["fields"]) ? (args["fields"] as ReadonlyArray<unknown>).map(String) : undefined
  const unknown = [...(sort === undefined ? [] : [sort.replace(/^[-+]/, "")]), ...(fields ?? [])].find((f) =>
    !FIGURES.includes(f)
  )
  if (unknown !== undefined) return `unknown item field \`${unknown}\`: screen_stocks items have ${FIGURES.join(", ")}`
  let items = record["items"] as ReadonlyArray<Json>
  let view: Json = record
  if (sort !== undefined) {
    if (record["next_cursor"] !== null) {
      return `sort orders at most ${SORT_POOL} matches and this screen has ${String(record["total"])}: narrow it ` +
        "(sectors, inside_kse100, a minimum) or leave sort out and page by symbol"
    }
    const limit = typeof args["limit"] === "number" ? args["limit"] : SCREENER_DEFAULT_LIMIT
    items = sorted(items, sort).slice(0, limit)
    view = {
      ...record,
      order: `${sort.replace(/^[-+]/, "")} ${sort.startsWith("-") ? "descending" : "ascending"}, unknown last`
    }
  }
  if (fields !== undefined) {
    const keep = new Set(["symbol", ...fields])
    items = items.map((i) => Object.fromEntries(Object.entries(i).filter(([k]) => keep.has(k))))
  }
  return { ...view, items }
}
