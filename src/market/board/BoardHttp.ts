/**
 * Handlers of the market status, board, sector, index and calendar endpoints: thin calls into MarketBoard
 * and MarketIndexes (the status is the calendar's, domain/market/calendar/Calendar.ts). The two boards are cached as
 * bytes per snapshot (`cached`, readmodel/SnapshotAnswers.ts).
 */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { currentMarketStatus } from "../../../domain/market/calendar/Calendar.ts"
import { AnswerCache } from "../../http/AnswerCache.ts"
import { Api } from "../../http/Api.ts"
import { PointInTime } from "../readmodel/PointInTime.ts"
import { MarketReadModel } from "../readmodel/ReadModel.ts"
import { snapshotAnswers } from "../readmodel/SnapshotAnswers.ts"
import { MarketBoard } from "./Board.ts"
import { MarketIndexes } from "./Indexes.ts"

/** The boards are a function of the snapshot alone. */
const always = () => Infinity

export const BoardHttp = HttpApiBuilder.group(Api, "board", (handlers) =>
  Effect.gen(function*() {
    const board = yield* MarketBoard
    const indexes = yield* MarketIndexes
    const cached = (yield* AnswerCache).handlersOf(Api, "board")
    const policies = snapshotAnswers(yield* MarketReadModel, yield* PointInTime)
    return handlers
      .handle("status", () => currentMarketStatus)
      .handle("marketSnapshot", () => board.snapshot)
      .handle("marketBoard", cached("marketBoard", policies.ofSnapshot("bounded", always), () => board.board))
      .handle("sectors", () => board.sectors)
      .handle("sectorBoard", cached("sectorBoard", policies.ofSnapshot("bounded", always), () => board.sectorBoard))
      .handle("sector", ({ params }) => board.sector(params.id))
      .handle("sectorPeers", ({ params }) => board.peers(params.id))
      .handle("sectorValuation", ({ params }) => board.valuation(params.id))
      .handle("indices", () => indexes.indices)
      .handle("index", ({ params, query }) => indexes.index(params.id, query))
      .handle("dividendCalendar", () => board.dividendCalendar)
  }))
