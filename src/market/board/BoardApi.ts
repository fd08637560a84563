/**
 * The market's calendar status, the market board, sectors, indices and the
 * dividend calendar (SPEC 4.1 and 4.3). Definitions only; handlers are in
 * BoardHttp.ts, the figures in Board.ts (MarketBoard) and Indexes.ts
 * (MarketIndexes), the status in domain/market/calendar/Calendar.ts.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { DataNotFound, InvalidRequest, SourceUnavailable } from "../../../domain/Errors.ts"
import { MIN_VALUE_TRADED } from "../../../domain/market/board/Board.ts"
import * as M from "../../../domain/market/board/BoardSchemas.ts"
import { PEER_RULE } from "../../../domain/market/board/PeerRule.ts"
import { MarketStatus } from "../../../domain/market/calendar/StatusSchema.ts"
import { INDEX_HISTORY_DEFAULT_LIMIT, INDEX_HISTORY_MAX_LIMIT, RANGES } from "../../../domain/market/shared/Limits.ts"
import { DateParam, limitParam } from "../../../domain/Params.ts"
import { marketEndpoint } from "../MarketEndpoints.ts"
import { asOfQuery } from "../readmodel/AsOf.ts"
import { AsOfMiddleware } from "../readmodel/AsOfMiddleware.ts"

const doc = (summary: string, description: string) => OpenApi.annotations({ summary, description })

const SectorId = {
  id: Schema.String.annotate({
    description:
      "A PSX sector code (e.g. 0807) or the sector's slug (e.g. commercial-banks); GET /v1/sectors lists both"
  })
}
const IndexId = {
  id: Schema.String.annotate({ description: "An index code, e.g. KSE100 (case and punctuation ignored: KSE-100)" })
}
const notFound = [DataNotFound, SourceUnavailable] as const

/** Which of an index's recorded closes to serve (shared with the MCP tool get_index). */
export const indexQuery = {
  range: Schema.optional(
    Schema.Literals(RANGES).annotate({
      description:
        "A named window counted back from the last recorded close: 1M, 3M, 6M, YTD, 1Y (default), 2Y, 3Y, 5Y, MAX"
    })
  ),
  date_from: Schema.optional(DateParam),
  date_to: Schema.optional(DateParam),
  limit: limitParam(INDEX_HISTORY_MAX_LIMIT, INDEX_HISTORY_DEFAULT_LIMIT)
}

const indexHistoryRules =
  "history: the index's recorded daily closes (KSE-100 from 2010-01-04), newest first, in the window " +
  "asked for: range (default 1Y, counted back from the last recorded close) or date_from/date_to (not both; date_from after " +
  `date_to is 400 INVALID_REQUEST). At most limit closes (default ${INDEX_HISTORY_DEFAULT_LIMIT}, maximum ` +
  `${INDEX_HISTORY_MAX_LIMIT}); truncated says the window held more. high, low and change are over the whole window. ` +
  "Closes are as recorded and their source is named in sources (a recording mixing Yahoo Finance ^KSE before 2021 and the " +
  "exchange's series after). Absent for an index with no recorded closes."

const sectorRules =
  `Every sector figure is a median, never a mean. ${PEER_RULE} The median P/E takes positive P/Es (TTM) of ` +
  "those lines only: loss-makers (negative P/E or EPS) are left out and counted in loss_makers_excluded, lines without a " +
  "P/E in without_pe. A P/E of 0 on the exchange's screener cannot be told from \"no figure\" (BAFL showed 0 after its split " +
  "and 7.10 in April): it is unknown (without_pe), never a loss. The yield of this family is the exchange's screener yield " +
  "as published (dividend_yield_pct of a peer, median_dividend_yield_pct of a sector; its date is the screener's, in " +
  "sources): the same rule holds, a 0 there is no figure, counted in without_yield and never entered as 0 (banks: BML, " +
  "JSBL and SBL). A sector with no usable figure has no median (the field is absent, never 0)."
const daySession =
  "Day figures (price, change, breadth) are of the latest recorded session: a security whose delayed " +
  "quote is older is counted as not priced that day."

export class BoardApi extends HttpApiGroup.make("board")
  .add(
    marketEndpoint(
      HttpApiEndpoint.get("status", "/v1/market/status", { query: asOfQuery, success: MarketStatus }),
      "Market calendar status now",
      "Market calendar status now (the service clock), in Asia/Karachi: state (open, closed, pre-open, post-close) and finer " +
        "phase, the session (Friday has two), today's and the next session's times, the next and previous trading day, why " +
        "the market is closed (weekend, named holiday, or a recorded closure) and the settlement cycle in force. Each answer " +
        "names the calendar it rests on: the exchange's published holiday list (2026), closures derived from the recorded " +
        "prices (2004 to the last recorded day), or none (unverified: weekdays assumed open)."
    ),
    HttpApiEndpoint.get("marketSnapshot", "/v1/market/snapshot", {
      query: asOfQuery,
      success: M.MarketSnapshot,
      error: SourceUnavailable
    })
      .annotateMerge(doc(
        "Index levels, breadth and freshness",
        "Current index levels (their history is at GET /v1/indices/{id}), breadth of the latest recorded session (advancers + decliners + unchanged = " +
          "securities priced that day; not_priced counted apart) and each dataset's as-of and age in days. " +
          daySession
      )),
    HttpApiEndpoint.get("marketBoard", "/v1/market/board", {
      query: asOfQuery,
      success: M.MarketBoard,
      error: notFound
    }).annotateMerge(doc(
      "Indices, breadth, movers and sector tone",
      `Index levels, breadth, movers (top 10 gainers, losers and most active by value traded) and per-sector tone ` +
        `(breadth and median change) of the latest recorded session. ${daySession} ${M.moversDescription} ` +
        `The threshold is Rs ${
          MIN_VALUE_TRADED.toLocaleString("en-US")
        }; value traded is volume × price when the source ` +
        "gives no turnover (value_basis). 404 DATA_NOT_FOUND when no quote is recorded."
    )),
    HttpApiEndpoint.get("sectors", "/v1/sectors", { query: asOfQuery, success: M.SectorList, error: SourceUnavailable })
      .annotateMerge(doc(
        "List of sectors",
        "Every PSX sector with its stable id (slug of the name), PSX code and number of listed constituents. Either the id or the code names a sector in /v1/sectors/{id}."
      )),
    HttpApiEndpoint.get("sectorBoard", "/v1/sectors/board", {
      query: asOfQuery,
      success: M.SectorBoard,
      error: SourceUnavailable
    }).annotateMerge(doc(
      "Every sector's medians, breadth and constituents",
      `Per sector: median change of the latest session, median P/E, median dividend yield, breadth counts and constituent counts, with peer counts. ${sectorRules} ${daySession}`
    )),
    HttpApiEndpoint.get("sector", "/v1/sectors/:id", {
      query: asOfQuery,
      params: SectorId,
      success: M.Sector,
      error: notFound
    }).annotateMerge(doc(
      "One sector",
      `The sector's figures (as on the sector board) and every member line, largest market cap first, rights and preference lines included (security_type). ${sectorRules} ` +
        "An unknown id is 404 DATA_NOT_FOUND."
    )),
    HttpApiEndpoint.get("sectorPeers", "/v1/sectors/:id/peers", {
      query: asOfQuery,
      params: SectorId,
      success: M.SectorPeers,
      error: notFound
    })
      .annotateMerge(doc(
        "A sector's peers",
        `The sector's peers, largest market cap first (unknown caps last). ${PEER_RULE} Each ` +
          "with price and change of the latest session, market cap, P/E and dividend yield where recorded. An unknown id is 404 DATA_NOT_FOUND."
      )),
    HttpApiEndpoint.get("sectorValuation", "/v1/sectors/:id/valuation", {
      query: asOfQuery,
      params: SectorId,
      success: M.SectorValuation,
      error: notFound
    })
      .annotateMerge(doc(
        "A sector's median valuation",
        `Median P/E and median dividend yield with peer counts. ${sectorRules} An unknown id is 404 DATA_NOT_FOUND.`
      )),
    HttpApiEndpoint.get("indices", "/v1/indices", { query: asOfQuery, success: M.IndexList, error: SourceUnavailable })
      .annotateMerge(doc(
        "List of indices",
        "Every index with a recorded level or membership: its current level, and whether its constituents are tracked (only " +
          "KSE-100's are). An index's recorded daily closes are at GET /v1/indices/{id} (history)."
      )),
    HttpApiEndpoint.get("index", "/v1/indices/:id", {
      params: IndexId,
      query: { ...indexQuery, ...asOfQuery },
      success: M.IndexDetail,
      error: [DataNotFound, SourceUnavailable, InvalidRequest]
    }).annotateMerge(doc(
      "One index, with its history of closes",
      "The current level, its daily closes (history) and, for KSE-100, its newest recorded constituents, with index weights " +
        "where that list records them: a list that gives membership only has weight_pct absent, and `warnings` says so and " +
        "names the newest list with weights. Other " +
        "indices carry a note that only KSE-100 membership is tracked. An index with nothing recorded is 404 DATA_NOT_FOUND. " +
        indexHistoryRules
    )),
    HttpApiEndpoint.get("dividendCalendar", "/v1/calendar/dividends", {
      query: asOfQuery,
      success: M.DividendCalendar,
      error: SourceUnavailable
    })
      .annotateMerge(doc(
        "Open payouts with their last buy date",
        "Announced payouts whose book closure has not ended (Asia/Karachi, today from the service clock), each with its book closure, " +
          "last_buy_date (the last trading day whose settlement, T+2 for trades until 6 Feb 2026 and T+1 from 9 Feb 2026, skipping " +
          "weekends and holidays, falls before the closure starts), xd_date (the next trading day, when the stock trades ex) and " +
          "whether buying today still earns it. ex_date is the closure's first day (SPEC 2.3, = book_closure_from). coverage says which " +
          "symbols' payouts are recorded and up to when: payouts of other symbols are unknown, not absent."
      ))
  )
  .middleware(AsOfMiddleware)
  .annotateMerge(OpenApi.annotations({
    title: "Market board, sectors, indices and calendar",
    description:
      "The market as a whole on the latest recorded session: status in Asia/Karachi, snapshot, board (breadth, " +
      "movers, sector tone), sectors with medians, indices (current level and daily closes) and the dividend calendar. Public: no key needed."
  }))
{}
