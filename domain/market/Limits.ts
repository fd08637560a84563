/**
 * Page sizes and named windows of the market endpoints: shared by the API
 * definitions (OpenAPI, validation), the services and the MCP tools.
 */
export const COMPANIES_DEFAULT_LIMIT = 50
export const COMPANIES_MAX_LIMIT = 200
export const SEARCH_MAX = 20

export const PRICES_DEFAULT_LIMIT = 250
export const PRICES_MAX_LIMIT = 1000
/** Named price windows, counted back from the newest recorded row. */
export const RANGES = ["1M", "3M", "6M", "YTD", "1Y", "2Y", "3Y", "5Y", "MAX"] as const
export type Range = typeof RANGES[number]

export const ANNOUNCEMENTS_DEFAULT_LIMIT = 50
export const ANNOUNCEMENTS_MAX_LIMIT = 200
