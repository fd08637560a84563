/**
 * The tool endpoint's resources: reference data an agent
 * or its host can read once instead of calling tools for it. Each is JSON
 * built from the same services as its HTTP route:
 *
 * - psx://universe: every listed security (the pages of GET /v1/companies, joined), as a table: one row of
 *   UNIVERSE_COLUMNS per security (sector names are in psx://sectors): about 65 KB on the pack, against 151 KB as the pages' JSON;
 * - psx://sectors: the sectors with codes and constituent counts (GET /v1/sectors);
 * - psx://indices: the indices (GET /v1/indices) with the membership of each
 *   tracked one (GET /v1/indices/{id});
 * - psx://calendar/dividends: open payouts with their last buy dates (GET /v1/calendar/dividends);
 * - psx://schemas/{tool}: the complete JSON Schema of a tool's result, in its compact form (Compact.ts), every
 *   list's items with their fields;
 * - psx://sources/{dataset}: a dataset's full source record (GET /v1/freshness's row): a tool's record names
 *   each source by dataset and as-of only.
 */
import { Effect, Layer, Schema } from "effect"
import { McpSchema, McpServer, Tool } from "effect/ai"
import { COMPANIES_MAX_LIMIT } from "../../domain/market/shared/Limits.ts"
import { MarketBoard } from "../market/board/Board.ts"
import { MarketIndexes } from "../market/board/Indexes.ts"
import { Companies } from "../market/companies/Companies.ts"
import { DatasetStatus } from "../market/provenance/DatasetStatus.ts"
import { compactSchema } from "./Compact.ts"
import { MARKET_TOOLS } from "./MarketTools.ts"
import { PORTFOLIO_TOOLS } from "./PortfolioTools.ts"

const JSON_TYPE = "application/json"

/** The JSON text of a resource's record. */
const json = <A, E, R>(record: Effect.Effect<A, E, R>) => Effect.map(record, (value) => JSON.stringify(value))

/** The columns of psx://universe's rows (an absent sector code is null). */
export const UNIVERSE_COLUMNS = ["symbol", "name", "security_type", "inside_kse100", "sector_code"] as const

export const RESOURCES = {
  universe: "psx://universe",
  sectors: "psx://sectors",
  indices: "psx://indices",
  dividendCalendar: "psx://calendar/dividends"
} as const

/** The complete result schema of every served tool, by name (an unknown name does not decode: invalid params). */
const resultSchemas = new Map<string, Schema.Top>([...MARKET_TOOLS, ...PORTFOLIO_TOOLS].flatMap((tool) => {
  const success = [...tool.endpoint.success][0]
  return success === undefined ? [] : [[tool.name, success] as const]
}))
const ToolName = Schema.Literals([...resultSchemas.keys()])

export const ResourcesLive = Layer.unwrap(Effect.gen(function*() {
  const companies = yield* Companies
  const board = yield* MarketBoard
  const indexes = yield* MarketIndexes
  const datasets = yield* DatasetStatus

  const sourceOf = (dataset: string) =>
    datasets.status.pipe(
      Effect.orElseSucceed(() => ({ datasets: [] as ReadonlyArray<{ readonly dataset: string }> })),
      Effect.flatMap((status) => {
        const row = status.datasets.find((d) => d.dataset === dataset)
        return row !== undefined
          ? Effect.succeed(JSON.stringify(row))
          : Effect.fail(
            new McpSchema.InvalidParams({
              message: `no dataset "${dataset.slice(0, 64)}": psx://sources/{dataset} takes ${
                status.datasets.map((d) => d.dataset).join(", ")
              }`
            })
          )
      })
    )

  const universe = Effect.gen(function*() {
    const first = yield* companies.list({ limit: COMPANIES_MAX_LIMIT })
    const items = [...first.items]
    let cursor = first.next_cursor
    while (cursor !== null) {
      const page = yield* companies.list({ limit: COMPANIES_MAX_LIMIT, cursor })
      items.push(...page.items)
      cursor = page.next_cursor
    }
    const rows = items.map((i) => [i.symbol, i.name, i.security_type, i.inside_kse100, i.sector_code ?? null])
    return { total: first.total, columns: UNIVERSE_COLUMNS, rows, sources: first.sources }
  })

  const indicesWithMembers = Effect.gen(function*() {
    const list = yield* indexes.indices
    const members = yield* Effect.forEach(
      list.items.filter((i) => i.constituents_tracked),
      (i) => indexes.index(i.code)
    )
    return { ...list, members }
  })

  return Layer.mergeAll(
    McpServer.resource({
      uri: RESOURCES.universe,
      name: "universe",
      description: "Every listed PSX security as rows of [symbol, name, security_type, inside_kse100, sector_code] " +
        "(GET /v1/companies, all pages; sector names: psx://sectors).",
      mimeType: JSON_TYPE,
      content: json(universe)
    }),
    McpServer.resource({
      uri: RESOURCES.sectors,
      name: "sectors",
      description: "Every PSX sector with its id, code and number of constituents (GET /v1/sectors).",
      mimeType: JSON_TYPE,
      content: json(board.sectors)
    }),
    McpServer.resource({
      uri: RESOURCES.indices,
      name: "indices",
      description: "Every index's current level (GET /v1/indices) and, in members, each tracked index with its " +
        "constituents and weights (GET /v1/indices/{id}; only KSE-100 membership is tracked).",
      mimeType: JSON_TYPE,
      content: json(indicesWithMembers)
    }),
    McpServer.resource({
      uri: RESOURCES.dividendCalendar,
      name: "dividend-calendar",
      description: "Announced payouts whose book closure has not ended, each with its last buy date and whether " +
        "buying today still earns it (GET /v1/calendar/dividends).",
      mimeType: JSON_TYPE,
      content: json(board.dividendCalendar)
    }),
    McpServer.resource`psx://schemas/${McpSchema.param("tool", ToolName)}`({
      name: "tool-result-schema",
      description: "The complete JSON Schema of a tool's result as MCP gives it (compact: Compact.ts), each list's " +
        "items with their fields.",
      mimeType: JSON_TYPE,
      content: (_uri, tool) =>
        Effect.succeed(
          JSON.stringify(
            compactSchema(Tool.getJsonSchemaFromSchema(resultSchemas.get(tool)!) as Record<string, unknown>)
          )
        )
    }),
    McpServer.resource`psx://sources/${McpSchema.param("dataset", Schema.String)}`({
      name: "source",
      description: "A dataset's full source record: who publishes it, its upstream, when it was retrieved, where the " +
        "recording is kept, its rows and last day (a tool's sources name the dataset and as-of only).",
      mimeType: JSON_TYPE,
      content: (_uri, dataset) => sourceOf(dataset)
    })
  )
}))
