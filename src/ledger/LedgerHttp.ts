/** Handlers of the session, donation, portfolio and ledger endpoints. */
import { Effect, Layer, Option } from "effect"
import { HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { SqlClient } from "effect/sql"
import { analyse } from "../../domain/ledger/Analysis.ts"
import { periodReturns } from "../../domain/ledger/Returns.ts"
import type { Grant } from "../../domain/ledger/Grants.ts"
import { Api } from "../http/Api.ts"
import { RateLimiter } from "../http/RateLimiter.ts"
import { storeUnavailable } from "../db/Rows.ts"
import { Prices } from "../market/Prices.ts"
import { Sources } from "../market/Sources.ts"
import { Audit } from "./Audit.ts"
import { CurrentPrincipal, PortfolioAuthLive } from "./Authorization.ts"
import { Donations } from "./Donations.ts"
import { EventStore } from "./EventStore.ts"
import { Keys } from "./Keys.ts"
import { LedgerSigner } from "./Signing.ts"
import { LEDGER_DEFAULT_LIMIT } from "./LedgerApi.ts"
import { Portfolio, streamOf } from "./Portfolio.ts"
import { toEntries } from "./Projection.ts"

const requestIdOf = Effect.map(HttpServerRequest.HttpServerRequest, (r) => r.headers["x-request-id"])

export const AccountHttp = HttpApiBuilder.group(Api, "account", (handlers) =>
  Effect.gen(function*() {
    const keys = yield* Keys
    const donations = yield* Donations
    const signer = yield* LedgerSigner
    return handlers
      .handle("session", () => keys.createSession)
      .handle("donate", ({ payload }) => donations.create(payload))
      .handle("signingKey", () => Effect.map(signer.publicKeys, (keys) => ({ keys })).pipe(storeUnavailable))
  }))

export const PortfolioHttp = HttpApiBuilder.group(Api, "portfolio", (handlers) =>
  Effect.gen(function*() {
    const keys = yield* Keys
    const portfolio = yield* Portfolio
    const audit = yield* Audit
    const sources = yield* Sources
    const prices = yield* Prices
    const sql = yield* SqlClient.SqlClient
    const signer = yield* LedgerSigner

    const withGrant = <A, E, R>(grant: Grant, f: (p: typeof CurrentPrincipal.Service) => Effect.Effect<A, E, R>) =>
      Effect.flatMap(CurrentPrincipal, (p) => Effect.andThen(keys.require(p, grant), f(p)))

    const quoteSources = (datasets: ReadonlyArray<string>) => sources.of([...new Set(datasets)])

    return handlers
      .handle("holdings", () =>
        withGrant("portfolio:read", (p) =>
          Effect.gen(function*() {
            const items = yield* portfolio.holdings(p)
            return {
              portfolio: streamOf(p.userId),
              items,
              sources: yield* quoteSources(items.some((i) => i.quote_as_of) ? ["prices_eod", "prices_as_traded", "board_allshr"] : [])
            }
          })))
      .handle("portfolio", ({ query }) =>
        withGrant("portfolio:read", (p) =>
          Effect.gen(function*() {
            const holdings = yield* portfolio.holdings(p)
            const page = yield* portfolio.history(p, query.limit ?? LEDGER_DEFAULT_LIMIT, query.cursor)
            const open = holdings.filter((h) => h.quantity > 0)
            const allValued = open.every((h) => h.market_value !== undefined)
            const sum = (f: (h: typeof holdings[number]) => number) => Math.round(holdings.reduce((s, h) => s + f(h), 0) * 100) / 100
            let invested = 0, proceeds = 0
            for (const e of page.events) {
              const ev = e.event
              if (ev.type !== "TradeRecorded" || page.events.some((x) => x.event.type === "TransactionReversed" && x.event.reverses === e.event_id)) continue
              if (ev.side === "buy") invested += ev.quantity * ev.price + ev.fees
              else proceeds += ev.quantity * ev.price - ev.fees
            }
            const marketValue = sum((h) => h.market_value ?? 0)
            const openCost = Math.round(open.reduce((s, h) => s + h.cost, 0) * 100) / 100
            return {
              portfolio: streamOf(p.userId),
              holdings,
              totals: {
                cost: openCost,
                realized_pnl: sum((h) => h.realized_pnl),
                dividends_net: sum((h) => h.dividends_net),
                ...(allValued && open.length > 0
                  ? { market_value: marketValue, unrealized_pnl: Math.round((marketValue - openCost) * 100) / 100 }
                  : open.length > 0
                  ? { market_value_note: "not every open position has a known quote: the total is left out, not understated" }
                  : {})
              },
              cash_flows: {
                invested: Math.round(invested * 100) / 100,
                proceeds: Math.round(proceeds * 100) / 100,
                dividends_net: sum((h) => h.dividends_net),
                tax_withheld: sum((h) => h.tax_withheld)
              },
              transactions: { total: page.total, next_cursor: page.next_cursor, items: page.items },
              sources: yield* quoteSources(holdings.some((i) => i.quote_as_of) ? ["prices_eod", "prices_as_traded", "board_allshr"] : [])
            }
          })))
      .handle("analyze", () =>
        withGrant("portfolio:read", (p) =>
          Effect.gen(function*() {
            const holdings = yield* portfolio.holdings(p)
            const symbols = holdings.map((h) => h.symbol)
            const history = yield* portfolio.history(p, 1, undefined)
            const entries = toEntries(history.events)
            const first = history.events.map((e) => e.effective_date).sort()[0]
            const closes = new Map(
              yield* Effect.forEach(symbols, (symbol) =>
                Effect.map(
                  prices.closes(symbol, first ? new Date(Date.parse(first) - 14 * 86_400_000).toISOString().slice(0, 10) : "9999-12-31"),
                  (rows) => [symbol, rows] as const
                ))
            )
            const end = [...closes.values()].flatMap((rows) => rows.map((r) => r.date)).sort().pop()
            const periods = end ? periodReturns(entries, closes, end) : []
            const [meta, index] = yield* Effect.all([
              sql<{ symbol: string; sector_name: string | null; kse100: boolean }>`
                SELECT s.symbol, s.sector_name,
                       EXISTS (SELECT 1 FROM index_membership m WHERE m.index_code = 'KSE100' AND m.symbol = s.symbol) AS kse100
                FROM securities s WHERE s.symbol = ANY(${`{${symbols.join(",")}}`}::text[])`,
              sql<{ sector: string; weight: string }>`
                SELECT coalesce(s.sector_name, 'unknown sector') AS sector, sum(m.weight_pct)::text AS weight
                FROM index_membership m JOIN securities s ON s.symbol = m.symbol
                WHERE m.index_code = 'KSE100' GROUP BY 1`
            ], { concurrency: 1 }).pipe(storeUnavailable)
            const bySymbol = new Map(meta.map((m) => [m.symbol, m]))
            const a = analyse(
              holdings.filter((h) => h.quantity > 0).map((h) => ({
                symbol: h.symbol,
                sector: bySymbol.get(h.symbol)?.sector_name ?? undefined,
                cost: h.cost,
                market_value: h.market_value,
                in_kse100: bySymbol.get(h.symbol)?.kse100 === true
              })),
              index.map((i) => ({ sector: i.sector, weight_pct: Number(i.weight) }))
            )
            return {
              portfolio: streamOf(p.userId),
              benchmark: "KSE-100 constituents" as const,
              ...a,
              dividend_income: {
                gross: Math.round(holdings.reduce((s, h) => s + h.dividends_gross, 0) * 100) / 100,
                net: Math.round(holdings.reduce((s, h) => s + h.dividends_net, 0) * 100) / 100,
                tax_withheld: Math.round(holdings.reduce((s, h) => s + h.tax_withheld, 0) * 100) / 100
              },
              ...(periods.length > 0 && end
                ? {
                  returns: {
                    basis: "time-weighted, daily chain-linked at recorded closes, dividends (net) included; fees in cost",
                    to: end,
                    periods
                  }
                }
                : {}),
              unavailable: [
                {
                  part: "benchmark returns",
                  reason: "KSE-100 returns over the same periods need index level history, which the service does not hold " +
                    "(index levels are current only)"
                },
                ...(periods.length === 0 && holdings.length > 0
                  ? [{ part: "returns", reason: "a holding has no recorded close in the period, so the return is unknown" }]
                  : []),
                ...(a.weight_basis === "cost"
                  ? [{ part: "market-value weights", reason: "not every open position has a known quote; weights use cost" }]
                  : [])
              ],
              sources: yield* sources.of(["index_kse100", "universe"])
            }
          })))
      .handle("transact", ({ payload, headers }) =>
        withGrant("portfolio:write", (p) =>
          Effect.gen(function*() {
            const requestId = yield* requestIdOf
            return yield* portfolio.record(p, payload, {
              idempotencyKey: headers["idempotency-key"],
              requestId
            })
          })))
      .handle("ledger", ({ query }) =>
        withGrant("portfolio:read", (p) =>
          Effect.map(portfolio.history(p, query.limit ?? LEDGER_DEFAULT_LIMIT, query.cursor), (h) => ({
            stream_id: streamOf(p.userId),
            total: h.total,
            next_cursor: h.next_cursor,
            items: h.items
          }))))
      .handle("verify", () =>
        withGrant("portfolio:read", (p) => audit.verifyStream(streamOf(p.userId)).pipe(storeUnavailable)))
      .handle("checkpoint", () =>
        withGrant("portfolio:read", (p) =>
          signer.checkpoint(streamOf(p.userId)).pipe(Effect.catchTag("SqlError", (e) => storeUnavailable(Effect.fail(e))))))
      .handle("createKey", ({ payload }) => Effect.flatMap(CurrentPrincipal, (p) => keys.createKey(p, payload.grants, payload.label)))
      .handle("listKeys", () => Effect.flatMap(CurrentPrincipal, (p) => keys.list(p)))
      .handle("revokeKey", ({ params }) =>
        Effect.flatMap(CurrentPrincipal, (p) =>
          Effect.tap(keys.revoke(p, params.id), (k) =>
            Effect.map(Effect.serviceOption(RateLimiter), Option.map((l) => l.forgetKey(k.id))))))
  }))

/** The ledger services over a SqlClient (and the market's Quotes and Sources). */
export const LedgerServices = Layer.mergeAll(Portfolio.layer, Donations.layer, Audit.layer, PortfolioAuthLive, LedgerSigner.layer).pipe(
  Layer.provideMerge(Layer.mergeAll(Keys.layer, EventStore.layer))
)
