/** Handlers of the market board, sector, index and calendar endpoints: thin calls into MarketBoard and MarketIndexes. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../http/Api.ts"
import { MarketBoard } from "./Board.ts"
import { MarketIndexes } from "./Indexes.ts"

export const BoardHttp = HttpApiBuilder.group(Api, "board", (handlers) =>
  Effect.gen(function*() {
    const board = yield* MarketBoard
    const indexes = yield* MarketIndexes
    return handlers
      .handle("marketSnapshot", () => board.snapshot)
      .handle("marketBoard", () => board.board)
      .handle("sectors", () => board.sectors)
      .handle("sectorBoard", () => board.sectorBoard)
      .handle("sector", ({ params }) => board.sector(params.id))
      .handle("sectorPeers", ({ params }) => board.peers(params.id))
      .handle("sectorValuation", ({ params }) => board.valuation(params.id))
      .handle("indices", () => indexes.indices)
      .handle("index", ({ params, query }) => indexes.index(params.id, query))
      .handle("dividendCalendar", () => board.dividendCalendar)
  }))
