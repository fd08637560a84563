/**
 * The market-data tools (SPEC 4.6): each is one public market route of the
 * HTTP API called in process (RouteTools.ts), so it takes every argument the
 * route takes (`as_of`, and any clock or option a route gains, by
 * construction), answers the route's body and the route's error records, and
 * says what the route does in the route's own words (its OpenAPI
 * description's opening sentences).
 *
 * A few tools are compact by default where the route's body is long: get_index
 * leaves out its constituents unless `constituents: true`.
 */
import { Context, Effect, Layer } from "effect"
import { McpSchema, McpServer } from "effect/ai"
import { type HttpApiEndpoint, OpenApi } from "effect/http-api"
import { AnalyticsApi } from "../market/analytics/AnalyticsApi.ts"
import { BoardApi } from "../market/board/BoardApi.ts"
import { CompaniesApi } from "../market/companies/CompaniesApi.ts"
import { FilingsApi } from "../market/filings/FilingsApi.ts"
import { PricesApi } from "../market/prices/PricesApi.ts"
import { QuotesApi } from "../market/quotes/QuotesApi.ts"
import { SearchApi } from "../market/search/SearchApi.ts"
import { sentences } from "./Listing.ts"
import { RouteCaller } from "./RouteCaller.ts"
import { callRoute } from "./RouteToolCall.ts"
import { type RouteTool, routeTool, type RouteToolOptions } from "./RouteTools.ts"
import { prepareScreen, SCREEN_OWN_ARGUMENTS, screenView } from "./ScreenView.ts"
import { sessionWarnings } from "./ToolWords.ts"

/**
 * What any market figure is and is not, and that an answer is compact (Compact.ts; its schema:
 * psx://schemas/{tool}): said once, in the server's instructions, for every tool.
 */
export const CAVEATS =
  "An absent field means unknown, never zero. Answers are compact: prices and rupees to the paisa, " +
  "ratios to 4 significant digits, a dataset source as {dataset, as_of} (the full record: psx://sources/{dataset})."

/** The most characters of the route's description a tool repeats (whole sentences). */
const WORDS_MAX = 90

/** The opening sentences of the route's description, up to WORDS_MAX characters. */
export const routeWords = (endpoint: HttpApiEndpoint.Top, max = WORDS_MAX) =>
  sentences(Context.getOrUndefined(endpoint.annotations, OpenApi.Description) ?? "", max)

/**
 * `as_of` (the market as known then) and `recorded_as_of` (what this deployment had stored by then) as tools/list
 * gives them: the server's instructions say what they are once; the route checks them (its full rule is the
 * route's parameter in /openapi.json).
 */
const AS_OF = { type: "string" }
const RECORDED_AS_OF = { type: "string" }

const market = (name: string, endpoint: HttpApiEndpoint.Top, addition = "", options: RouteToolOptions = {}) => {
  const own = options.shape
  const tool = routeTool(
    name,
    endpoint,
    [routeWords(endpoint), addition].filter((s) => s !== "").join(" "),
    {
      ...options,
      shape: (record, args) => {
        const shaped = own === undefined ? record : own(record, args)
        return typeof shaped === "string" ? shaped : withSessionWarnings(shaped, args)
      }
    }
  )
  return withClocks(tool)
}

/** A tool's descriptor with the short words of its clocks (`as_of`, `recorded_as_of`), when it takes them. */
const withClocks = (tool: RouteTool): RouteTool => {
  const input = tool.descriptor.inputSchema
  if (input.properties?.["as_of"] === undefined) return tool
  const descriptor = new McpSchema.Tool({
    ...tool.descriptor,
    inputSchema: {
      ...input,
      properties: {
        ...input.properties,
        as_of: AS_OF,
        ...(input.properties?.["recorded_as_of"] === undefined ? {} : { recorded_as_of: RECORDED_AS_OF })
      }
    }
  })
  return { ...tool, descriptor }
}

/** get_index without its constituents unless asked (KSE-100's are 100 rows, about 13 KB). */
const indexShape = (record: Record<string, unknown>, own: Record<string, unknown>) => {
  if (own["constituents"] === true || !Array.isArray(record["constituents"])) return record
  const left = (record["constituents"] as ReadonlyArray<unknown>).length
  return left === 0 ? record : { ...record, constituents: [], constituents_left_out: left }
}

/** The route's record with `warnings` naming the days asked for that were not trading sessions (none: unchanged). */
const withSessionWarnings = (record: Record<string, unknown>, args: Record<string, unknown>) => {
  const said = sessionWarnings(args)
  if (said.length === 0) return record
  const had = Array.isArray(record["warnings"]) ? record["warnings"] as ReadonlyArray<unknown> : []
  return { ...record, warnings: [...had, ...said] }
}

const a = AnalyticsApi.endpoints
const b = BoardApi.endpoints
const f = FilingsApi.endpoints

export const MARKET_TOOLS: ReadonlyArray<RouteTool> = [
  market("search_symbols", SearchApi.endpoints.search),
  market("get_company", CompaniesApi.endpoints.company),
  market("get_quote", QuotesApi.endpoints.quote),
  market(
    "get_price_history",
    PricesApi.endpoints.prices,
    "NOT adjusted unless `adjust` asks; a bonus shows as a step, not a fall."
  ),
  market("get_financials", f.financials),
  market("get_dividends", f.dividends),
  market("get_corporate_actions", f.corporateActions),
  market("get_announcements", f.announcements),
  market("get_news", f.news, "Filings: get_announcements."),
  market(
    "get_index",
    b.index,
    "Constituents and weights (KSE-100's current weights may be absent) only with constituents: true.",
    {
      own: {
        constituents: {
          type: "boolean",
          description: "true: with them (default: counted only)"
        }
      },
      shape: indexShape
    }
  ),
  market("get_market_snapshot", b.marketSnapshot),
  market("get_sector", b.sector),
  market("get_sector_peers", b.sectorPeers),
  market("get_sector_valuation", b.sectorValuation),
  withClocks(routeTool(
    "screen_stocks",
    a.screenPost,
    "Screen every listed security on the delayed snapshot (POST /v1/screener's filters, all optional). sectors: " +
      "ids, codes or names of psx://sectors (unknown: an error). A security whose filtered figure is unknown is left " +
      "out, counted in left_out_unknown. dividend_yield_pct: get_valuation's trailing yield. Paged by symbol, or " +
      "`sort` by any item field; `fields` to keep.",
    { flatBody: true, readOnly: true, own: SCREEN_OWN_ARGUMENTS, prepare: prepareScreen, shape: screenView }
  )),
  market("compare_stocks", a.compare),
  market("get_research", a.research),
  market("get_valuation", a.valuation),
  market("get_technicals", a.technicals, "", { renames: { symbol: "sym" } })
]

/** Registers the market tools (on the McpServer in context: give it Bounds.ts's `boundedServer`). Public: no credential. */
export const MarketToolsLive = Layer.effectDiscard(Effect.gen(function*() {
  const server = yield* McpServer.McpServer
  const caller = yield* RouteCaller
  const services = yield* Effect.context<never>()
  for (const tool of MARKET_TOOLS) {
    yield* server.addTool({
      tool: tool.descriptor,
      annotations: Context.empty(),
      services,
      handle: callRoute(caller, tool, () => undefined)
    })
  }
}))
