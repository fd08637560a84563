/**
 * The sector tools of the tool endpoint (SPEC 4.6): get_sector,
 * get_sector_peers and get_sector_valuation, over the same service
 * (`MarketBoard`) and records as GET /v1/sectors/{id}, /peers and
 * /valuation. A failure is returned as the tool's result (the error
 * record), not as a protocol error.
 */
import { Effect, Schema } from "effect"
import { Toolkit } from "effect/ai"
import * as M from "../../domain/market/board/BoardSchemas.ts"
import { MarketBoard } from "../market/board/Board.ts"
import { marketTool } from "./Tools.ts"

const sectorId = {
  id: Schema.String.annotate({ description: "Sector code (0807), slug or name (commercial-banks); list: resource psx://sectors" })
}
const medians = "Sector figures are medians over lines that traded in the last 20 sessions (not_trading counts the rest); " +
  "the median P/E leaves out loss-makers (counted) and unknown P/Es (a screener 0 is unknown)."
const tool = <const N extends string, A extends Schema.Top>(name: N, description: string, success: A) =>
  marketTool(name, description, Schema.Struct(sectorId), success)

export const GetSector = tool(
  "get_sector",
  "One sector (= GET /v1/sectors/{id}): median change, P/E and yield (%), breadth and every member line with " +
    `price, change, market cap, P/E and yield. ${medians}`,
  M.Sector
)
export const GetSectorPeers = tool(
  "get_sector_peers",
  "A sector's ordinary lines, largest market cap first (= GET /v1/sectors/{id}/peers), with price, change, market " +
    "cap, P/E and yield.",
  M.SectorPeers
)
export const GetSectorValuation = tool(
  "get_sector_valuation",
  `A sector's median P/E and dividend yield (%) with peer counts (= GET /v1/sectors/{id}/valuation). ${medians}`,
  M.SectorValuation
)

export const SectorToolkit = Toolkit.make(GetSector, GetSectorPeers, GetSectorValuation)

export const SectorToolkitLive = SectorToolkit.toLayer(Effect.gen(function*() {
  const board = yield* MarketBoard
  return SectorToolkit.of({
    get_sector: ({ id }) => board.sector(id),
    get_sector_peers: ({ id }) => board.peers(id),
    get_sector_valuation: ({ id }) => board.valuation(id)
  })
}))
