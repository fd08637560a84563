/**
 * What a tool's answer says in MCP's words rather than HTTP's: an error message that names a route names the
 * tool or resource that answers it ("GET /v1/sectors lists them" becomes "psx://sectors lists them"), a refused
 * argument is called an argument and the message lists the tool's accepted arguments, and a date asked for that
 * was not a trading session says so. Pure functions.
 */
import { addDays, tradingDayStatus } from "../../domain/market/calendar/Calendar.ts"

/** Routes an agent reads as a resource rather than a tool. */
const RESOURCE_ROUTES: ReadonlyArray<readonly [string, string]> = [
  ["/v1/sectors", "psx://sectors"],
  ["/v1/indices", "psx://indices"],
  ["/v1/calendar/dividends", "psx://calendar/dividends"],
  ["/v1/companies", "search_symbols (or psx://universe)"],
  ["/v1/freshness", "psx://sources/{dataset}"]
]

/** A route path (`/v1/quotes/:symbol` or `{symbol}`) as a pattern of the paths it answers. */
const patternOf = (path: string) =>
  new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/:[A-Za-z_]+|\{[A-Za-z_]+\}/g, "[^/]+")}$`)

export interface RouteName {
  readonly method: string
  readonly path: string
  readonly name: string
}

const ROUTE_IN_TEXT = /\b(?:(GET|POST|PUT|DELETE|PATCH) )?(\/v1\/[A-Za-z0-9/:{}._-]*[A-Za-z0-9}])(?:\?[^\s;,)]*)?/g

/** `message` with each route it names replaced by the tool or resource that answers it (unknown routes kept). */
export const inMcpWords = (message: string, tools: ReadonlyArray<RouteName>): string => {
  const named = message.replace(ROUTE_IN_TEXT, (whole, method: string | undefined, path: string) => {
    const tool = tools.find((t) => (method === undefined || t.method === method) && patternOf(t.path).test(path))
    if (tool !== undefined) return tool.name
    const resource = RESOURCE_ROUTES.find(([route]) => patternOf(route).test(path))
    return resource !== undefined && (method === undefined || method === "GET") ? resource[1] : whole
  })
  // "psx://sectors, MCP psx://sectors" says it once.
  return named.replace(/(\S+)(,| or) MCP \1/g, "$1").replace(/\b(query|body|path|header) field `/g, "argument `")
}

/** An argument error's message with the arguments the tool takes (unless it names them already). */
export const withAccepted = (message: string, tool: string, accepted: ReadonlyArray<string>) =>
  message.includes(`${tool} takes`) ? message : `${message}; ${tool} takes ${accepted.join(", ")}`

const why = (day: string) => {
  const status = tradingDayStatus(day)
  if (status.trading) return undefined
  return status.holiday !== undefined
    ? `a holiday (${status.holiday})`
    : status.reason === "weekend"
    ? "a weekend"
    : "a day the exchange was closed"
}

/** The most days of a window whose closures are named. */
const WINDOW_DAYS = 62

/**
 * Warnings naming the days asked for on which the exchange held no session: each holiday or closure in a
 * `date_from`..`date_to` window (weekends go unsaid there), and a single day asked for (`as_of`, or a window's
 * one end alone, or a one-day window) that was not a trading session, weekends included.
 */
export const sessionWarnings = (args: Readonly<Record<string, unknown>>): ReadonlyArray<string> => {
  const day = (v: unknown) => typeof v === "string" && /^\d{4}-\d{2}-\d{2}/.test(v) ? v.slice(0, 10) : undefined
  const from = day(args["date_from"]), to = day(args["date_to"]), asOf = day(args["as_of"])
  const out: Array<string> = []
  const single = (what: string, d: string) => {
    const reason = why(d)
    if (reason !== undefined) {
      out.push(
        `${what} ${d} was ${reason}, not a trading session: no row is dated that day` +
          (what === "as_of" ? "; the figures as of it are the last session's before it" : "")
      )
    }
  }
  if (asOf !== undefined && typeof args["as_of"] === "string" && args["as_of"].length === 10) single("as_of", asOf)
  if (from !== undefined && to !== undefined && from <= to) {
    if (from === to) single("the day asked for,", from)
    else {
      for (let d = from, n = 0; d <= to && n < WINDOW_DAYS; d = addDays(d, 1), n++) {
        const reason = why(d)
        if (reason !== undefined && reason !== "a weekend") {
          out.push(`${d} was ${reason}, not a trading session: no row is dated that day`)
        }
      }
    }
  } else if (from !== undefined && to === undefined) single("date_from", from)
  else if (to !== undefined && from === undefined) single("date_to", to)
  return out
}
