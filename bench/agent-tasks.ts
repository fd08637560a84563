/**
 * The seven agent tasks, each a fixed script of MCP calls (the official SDK client), and the check
 * that its answers hold the figures the task needs (expected values: agent-expected.ts, from the recordings).
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import * as X from "./agent-expected.ts"

export interface Call {
  readonly what: string
  readonly text: string
  readonly textBytes: number
  readonly structuredBytes: number
  readonly isError: boolean
}

/** The clients of the three callers: no key, a read-only key, a read and write key (connected on first use). */
export interface Clients {
  readonly get: (who: "anonymous" | "reader" | "writer") => Promise<Client>
  /** Whether an earlier transport's run has recorded task 5's buy already. */
  readonly afterFirstRun: boolean
}

export interface Outcome {
  readonly calls: ReadonlyArray<Call>
  readonly answered: boolean
  readonly missing: ReadonlyArray<string>
}

const bytes = (s: string) => Buffer.byteLength(s, "utf8")

const callTool = async (client: Client, name: string, args: Record<string, unknown>): Promise<Call> => {
  try {
    const result: any = await client.callTool({ name, arguments: args })
    const text = (result.content ?? []).map((c: any) => c.type === "text" ? c.text : "").join("\n")
    return {
      what: name,
      text,
      textBytes: bytes(text),
      structuredBytes: result.structuredContent === undefined ? 0 : bytes(JSON.stringify(result.structuredContent)),
      isError: result.isError === true
    }
  } catch (e) {
    const text = String((e as Error).message)
    return { what: name, text, textBytes: bytes(text), structuredBytes: 0, isError: true }
  }
}

const readResource = async (client: Client, uri: string): Promise<Call> => {
  try {
    const result = await client.readResource({ uri })
    const text = result.contents.map((c: any) => c.text ?? "").join("\n")
    return { what: uri, text, textBytes: bytes(text), structuredBytes: 0, isError: false }
  } catch (e) {
    const text = String((e as Error).message)
    return { what: uri, text, textBytes: bytes(text), structuredBytes: 0, isError: true }
  }
}

/** Every number written in a text. */
const numbersIn = (text: string) => (text.match(/-?\d+(\.\d+)?/g) ?? []).map(Number)

/** Whether the text holds `value` within `tolerance` (relative when `relative`). */
const holds = (text: string, value: number, tolerance = 0.005, relative = false) =>
  numbersIn(text).some((n) => Math.abs(n - value) <= (relative ? Math.abs(value) * tolerance : tolerance))

const check = (calls: ReadonlyArray<Call>, wants: ReadonlyArray<readonly [string, boolean]>): Outcome => {
  const missing = wants.filter(([, ok]) => !ok).map(([what]) => what)
  return { calls, answered: missing.length === 0, missing }
}

const all = (calls: ReadonlyArray<Call>) => calls.map((c) => c.text).join("\n")

export const TASKS: ReadonlyArray<{ readonly name: string; readonly run: (c: Clients) => Promise<Outcome> }> = [
  {
    name: "1 KSE-100 banks: yield, next book closure",
    run: async (clients) => {
      const anonymous = await clients.get("anonymous")
      const calls = [
        await callTool(anonymous, "screen_stocks", {
          sectors: ["commercial-banks"],
          inside_kse100: true,
          sort: "-dividend_yield_pct",
          fields: ["symbol", "dividend_yield_pct"],
          limit: 5
        }),
        await readResource(anonymous, "psx://calendar/dividends"),
        await callTool(anonymous, "get_dividends", { symbol: "MEBL" })
      ]
      const { members, closures } = X.kse100Banks()
      const named = members.filter((s) => calls[0]!.text.includes(`"${s}"`))
      return check(calls, [
        [`at least 3 of the KSE-100 banks (${members.length}) ranked`, named.length >= 3 && !calls[0]!.isError],
        ...[...closures].map(([s, d]) => [`${s}'s recorded book closure ${d}`, all(calls).includes(d)] as const)
      ])
    }
  },
  {
    name: "2 OGDC, PPL, MARI: 1Y total return, P/E",
    run: async (clients) => {
      const anonymous = await clients.get("anonymous")
      const calls = [await callTool(anonymous, "compare_stocks", { symbols: "OGDC,PPL,MARI" })]
      for (const symbol of ["OGDC", "PPL", "MARI"]) {
        calls.push(
          await callTool(anonymous, "get_price_history", { symbol, range: "1Y", adjust: "total_return", limit: 1 })
        )
      }
      return check(calls, [
        ...["OGDC", "PPL", "MARI"].map((s) =>
          [`${s} P/E ${X.screenerPe(s).toPrecision(4)}`, holds(calls[0]!.text, X.screenerPe(s), 0.0005, true)] as const
        ),
        ...calls.slice(1).map((c, i) => {
          const symbol = ["OGDC", "PPL", "MARI"][i]!
          // No payout of the symbol is recorded: its total return is unknown, and the answer must say so (not a price change).
          return X.hasPayouts(symbol)
            ? [`${symbol} 1Y total-return change`, !c.isError && /"change/.test(c.text)] as const
            : [
              `${symbol} total return said unknown (no payout recorded)`,
              !c.isError && /no payout record/.test(c.text)
            ] as const
        })
      ])
    }
  },
  {
    name: "3 HUBC news and filings, last 30 days",
    run: async (clients) => {
      const anonymous = await clients.get("anonymous")
      const recent = X.hubcRecent()
      const back = (date: string) =>
        new Date(Date.parse(`${date}T00:00:00Z`) - 29 * 86_400_000).toISOString().slice(0, 10)
      const calls = [
        await callTool(anonymous, "get_market_snapshot", {}),
        await callTool(anonymous, "get_news", { symbol: "HUBC", date_from: back(recent.lastNews) }),
        await callTool(anonymous, "get_announcements", { symbol: "HUBC", date_from: back(recent.lastFiling) })
      ]
      return check(calls, [
        [`news last day ${recent.lastNews} named`, calls[0]!.text.includes(recent.lastNews)],
        [`filings last day ${recent.lastFiling} named`, calls[0]!.text.includes(recent.lastFiling)],
        ...recent.news.map((id) => [`news ${id}`, calls[1]!.text.includes(id)] as const),
        ...recent.filings.map((id) => [`filing ${id}`, calls[2]!.text.includes(id)] as const)
      ])
    }
  },
  {
    name: "4 read key: worth, vs KSE-100, owed next",
    run: async (clients) => {
      const reader = await clients.get("reader")
      const calls = [
        await callTool(reader, "get_holdings", {}),
        await callTool(reader, "get_performance", {}),
        await callTool(reader, "get_entitlements", {})
      ]
      const worth = X.portfolioWorth(clients.afterFirstRun)
      return check(calls, [
        [
          `worth ${worth.atLastClose} (last close) or ${worth.atScreener.toFixed(2)} (08-04 screener)`,
          holds(all(calls), worth.atLastClose) || holds(all(calls), worth.atScreener)
        ],
        ["a KSE-100 comparison", !calls[1]!.isError && /kse100|KSE-100|benchmark/i.test(calls[1]!.text)],
        ["entitlements answered", !calls[2]!.isError]
      ])
    }
  },
  {
    name: "5 write key: record 50 LUCK @1,050 then check; read key refused",
    run: async (clients) => {
      const body = { kind: "buy", symbol: "LUCK", quantity: 50, price: 1050, trade_date: "2026-05-20" }
      const writer = await clients.get("writer")
      const calls = [
        await callTool(writer, "record_transaction", { body, idempotency_key: "bench-agent-luck" }),
        await callTool(writer, "get_holdings", {})
      ]
      calls.push(await callTool(await clients.get("reader"), "record_transaction", { body }))
      return check(calls, [
        ["recorded", !calls[0]!.isError],
        ["holdings show LUCK", /"LUCK"/.test(calls[1]!.text)],
        [
          "read key refused",
          calls[2]!.isError && /FORBIDDEN|portfolio:write|not found|unknown tool/i.test(calls[2]!.text)
        ]
      ])
    }
  },
  {
    name: "6 the market on 2026-05-01",
    run: async (clients) => {
      const anonymous = await clients.get("anonymous")
      const calls = [
        await callTool(anonymous, "get_index", { id: "KSE100", date_from: "2026-04-27", date_to: "2026-05-01" }),
        await callTool(anonymous, "get_market_snapshot", { as_of: "2026-05-01" })
      ]
      const [day, close] = X.kse100Before("2026-05-01")
      return check(calls, [
        [`KSE-100 ${close} (close of ${day})`, holds(calls[0]!.text, close)],
        ["says 2026-05-01 was a holiday", /holiday/i.test(all(calls))]
      ])
    }
  },
  {
    name: "7 Hub Power, Meezan, Lucky Cement -> tickers",
    run: async (clients) => {
      const anonymous = await clients.get("anonymous")
      const queries = ["Hub Power", "Meezan", "Lucky Cement"]
      const calls: Array<Call> = []
      for (const q of queries) calls.push(await callTool(anonymous, "search_symbols", { q, limit: 3 }))
      return check(
        calls,
        queries.map((q, i) => {
          const first = /"symbol":\s*"([^"]+)"/.exec(calls[i]!.text)?.[1]
          return [`${q} -> ${X.symbolNamed(q)} first`, !calls[i]!.isError && first === X.symbolNamed(q)] as const
        })
      )
    }
  }
]
