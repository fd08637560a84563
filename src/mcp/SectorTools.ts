/**
 * The sector tools of the tool endpoint (SPEC 4.6): get_sector,
 * get_sector_peers and get_sector_valuation, over the same service
 * (`MarketBoard`) and records as GET /v1/sectors/{id}, /peers and
 * /valuation. A failure is returned as the tool's result (the error
 * record), not as a protocol error.
 */
import { Effect, Schema } from "effect"
import { Toolkit } from "effect/ai"
import * as M from "../../domain/market/MarketSchemas.ts"
import { MarketBoard } from "../market/board/Board.ts"
import { PEER_RULE } from "../../domain/market/PeerRule.ts"
import { marketTool } from "./Tools.ts"

const sectorId = {
  id: Schema.String.annotate({
    description: "A PSX sector code (e.g. 0807) or the sector's slug or name (e.g. commercial-banks, CEMENT); " +
      "get them from GET /v1/sectors. An unknown id returns DATA_NOT_FOUND."
  })
}
const medians = "Every sector figure is a median, never a mean; a sector with no usable figure has no median (the field " +
  "is absent, never 0). The median P/E uses positive trailing-12-month P/Es only: loss-makers are left out and counted " +
  "(loss_makers_excluded), lines without a P/E (a 0 on the exchange's screener among them: unknown, not a loss) are " +
  `counted in without_pe. Yields are percent. ${PEER_RULE}`
const tool = <const N extends string, A extends Schema.Top>(name: N, description: string, success: A) =>
  marketTool(name, description, Schema.Struct(sectorId), success)

export const GetSector = tool(
  "get_sector",
  "One PSX sector: median change (%) of its lines priced in the latest recorded session, median P/E, median dividend " +
    "yield (%), breadth (advancers, decliners, unchanged, not priced) and every member line with price (Rs), change (%), " +
    `market cap (Rs), P/E and yield where recorded. Prices are delayed daily figures, not live. ${medians}`,
  M.Sector
)
export const GetSectorPeers = tool(
  "get_sector_peers",
  "A sector's peers: its ordinary lines (rights, preference, debt and futures lines left out), largest market cap " +
    "first (unknown caps last), with price (Rs) and change (%) of the latest recorded session, market cap (Rs), P/E " +
    "and dividend yield (%) where recorded; an absent figure is unknown.",
  M.SectorPeers
)
export const GetSectorValuation = tool(
  "get_sector_valuation",
  `A sector's median P/E and median dividend yield (%) with peer counts. ${medians} Valuation figures are the ` +
    "exchange's screener as of the date in sources.",
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
