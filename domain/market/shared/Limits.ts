/**
 * Page sizes and named windows of the market endpoints: shared by the API
 * definitions (OpenAPI, validation), the services and the MCP tools.
 */
import { addDays } from "../../Karachi.ts"
export const COMPANIES_DEFAULT_LIMIT = 50
export const COMPANIES_MAX_LIMIT = 200
export const SEARCH_MAX = 20

export const PRICES_DEFAULT_LIMIT = 250
export const PRICES_MAX_LIMIT = 1000
/** Named price windows, counted back from the newest recorded row. */
export const RANGES = ["1M", "3M", "6M", "YTD", "1Y", "2Y", "3Y", "5Y", "MAX"] as const
export type Range = typeof RANGES[number]

const MONTHS: Partial<Record<Range, number>> = { "1M": 1, "3M": 3, "6M": 6, "1Y": 12, "2Y": 24, "3Y": 36, "5Y": 60 }

/** The first date of a named window ending on `newest` (undefined: the whole history). */
export const rangeStart = (range: Range, newest: string): string | undefined => {
  if (range === "MAX") return undefined
  if (range === "YTD") return `${newest.slice(0, 4)}-01-01`
  const d = new Date(newest + "T00:00:00Z")
  d.setUTCMonth(d.getUTCMonth() - (MONTHS[range] ?? 0))
  return addDays(d.toISOString().slice(0, 10), 1)
}

/** Closes of an index served at once: by default a year's, at most about four years'. */
export const INDEX_HISTORY_DEFAULT_LIMIT = 260
export const INDEX_HISTORY_MAX_LIMIT = 1000

export const ANNOUNCEMENTS_DEFAULT_LIMIT = 50
export const ANNOUNCEMENTS_MAX_LIMIT = 200
