/**
 * Daily price history, as traded or adjusted on request (SPEC 4.1). Definitions only; the handler is in
 * PricesHttp.ts, the rules in Prices.ts.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { AdjustParam } from "../../../domain/market/prices/AdjustmentSchemas.ts"
import { PRICES_DEFAULT_LIMIT, PRICES_MAX_LIMIT, RANGES } from "../../../domain/market/shared/Limits.ts"
import * as S from "../../../domain/market/shared/Schemas.ts"
import { Cursor, DateParam, limitParam, SymbolPath } from "../../../domain/Params.ts"
import { marketEndpoint, symbolErrors } from "../MarketEndpoints.ts"
import { asOfQuery } from "../readmodel/AsOf.ts"
import { AsOfMiddleware } from "../readmodel/AsOfMiddleware.ts"

/** Which rows of a symbol's daily series to serve (shared with the MCP tool get_price_history). */
export const pricesQuery = {
  date_from: Schema.optional(DateParam),
  date_to: Schema.optional(DateParam),
  limit: limitParam(PRICES_MAX_LIMIT, PRICES_DEFAULT_LIMIT),
  range: Schema.optional(
    Schema.Literals(RANGES).annotate({
      description: "A named window counted back from the newest row: 1M, 3M, 6M, YTD, 1Y, 2Y, 3Y, 5Y, MAX"
    })
  ),
  series: Schema.optional(
    Schema.Literals(["auto", "as_traded", "eod"]).annotate({
      description:
        "auto (default): as traded where recorded, else the exchange's eod series; restated symbols get eod alone"
    })
  ),
  cursor: Cursor
}

export class PricesApi extends HttpApiGroup.make("prices")
  .add(
    marketEndpoint(
      HttpApiEndpoint.get("prices", "/v1/prices/:symbol", {
        params: SymbolPath,
        query: { ...asOfQuery, ...pricesQuery, adjust: AdjustParam },
        success: S.PricesResponse,
        error: symbolErrors
      }),
      "Get daily price history (as traded, or adjusted on request)",
      `Daily OHLCV, newest first: as traded by default (adjusted: false); adjust=splits or total_return adjusts it (see the ` +
        `parameter and the answer's adjustment block). Default ${PRICES_DEFAULT_LIMIT} rows, maximum ${PRICES_MAX_LIMIT}, then next_cursor. ` +
        "Rows recorded with a close only leave open/high/low out. A named range also returns its close-based high, low and change."
    )
  )
  .middleware(AsOfMiddleware)
  .annotateMerge(OpenApi.annotations({
    title: "Prices",
    description:
      "A listed security's daily price history: as traded, or adjusted for splits and bonuses or for total return on " +
      "request, by named range or dates, paged. Public: no key needed."
  }))
{}
