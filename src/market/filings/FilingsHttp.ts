/** Handlers of the filings endpoints (statements, dividends, corporate actions, announcements, news): thin calls into Filings. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../http/Api.ts"
import { Filings } from "./Filings.ts"

export const FilingsHttp = HttpApiBuilder.group(Api, "filings", (handlers) =>
  Effect.gen(function*() {
    const filings = yield* Filings
    return handlers
      .handle("financials", ({ params }) => filings.financials(params.symbol))
      .handle("stockFinancials", ({ params }) => filings.financials(params.symbol))
      .handle("dividends", ({ params }) => filings.dividends(params.symbol))
      .handle("stockDividends", ({ params }) => filings.dividends(params.symbol))
      .handle("corporateActions", ({ params }) => filings.corporateActions(params.symbol))
      .handle("announcements", ({ query }) => filings.announcements(query))
      .handle("symbolAnnouncements", ({ params, query }) => filings.announcements({ ...query, symbol: params.sym }))
      .handle("stockAnnouncements", ({ params, query }) => filings.announcements({ ...query, symbol: params.symbol }))
      .handle("news", ({ query }) => filings.news(query))
  }))
