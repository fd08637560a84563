/**
 * What each agent task's answer must hold, derived from the bundled pack's recordings (data/pack), never from the
 * service: the last closes, the exchange's screener of 2026-08-04, the KSE-100 list and history, the payouts, news
 * and filings as recorded.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { gunzipSync } from "node:zlib"

const PACK = join(import.meta.dirname, "../data/pack")

const load = (file: string): any => {
  const bytes = readFileSync(join(PACK, file))
  return JSON.parse((file.endsWith(".gz") ? gunzipSync(bytes) : bytes).toString("utf8"))
}

const DAY_MS = 86_400_000

/** A recorded series `{s, d, c}` (start date, day gaps, closes) as [date, close] rows, oldest first. */
const rowsOf = (series: { s: string; d: ReadonlyArray<number>; c: ReadonlyArray<number> }) => {
  let at = Date.parse(`${series.s}T00:00:00Z`)
  return series.d.map((gap, i) => {
    at += gap * DAY_MS
    return [new Date(at).toISOString().slice(0, 10), series.c[i]!] as const
  })
}

const prices = load("prices_eod.json.gz")
const lastClose = (symbol: string) => rowsOf(prices[symbol]).at(-1)!

const screener0804 = new Map<string, any>(load("screener_2026_08_04.json.gz").map((r: any) => [r.symbol, r]))
const universe: Array<any> = load("universe.json")
const kse100: Array<any> = load("index_kse100.json")
const payouts: Array<any> = load("payouts.json")
const news: Array<any> = load("news.json.gz")
const filings: Array<any> = load("announcements.json")
const indexRows = rowsOf(load("index_history_kse100.json.gz")["KSE100"])

const daysBefore = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) - days * DAY_MS).toISOString().slice(0, 10)

/** Task 1: the KSE-100 constituents the universe files under commercial banks, and the newest recorded book closure of each. */
export const kse100Banks = () => {
  const banks = new Set(universe.filter((u) => u.sectorName === "COMMERCIAL BANKS").map((u) => u.symbol as string))
  const members = kse100.map((k) => k.symbol as string).filter((s) => banks.has(s))
  const closures = new Map<string, string>()
  for (const p of payouts) {
    if (members.includes(p.symbol) && (closures.get(p.symbol) ?? "") < p.bookClosureFrom) {
      closures.set(p.symbol, p.bookClosureFrom)
    }
  }
  return { members, closures }
}

/** Task 2: the P/E the exchange's screener of 2026-08-04 gives each symbol (newer than the last close, so the one served). */
export const screenerPe = (symbol: string) => screener0804.get(symbol)?.peTtm as number

/** Task 2: whether the pack records any payout of the symbol (without one its total return is unknown, not its price change). */
export const hasPayouts = (symbol: string) => payouts.some((p) => p.symbol === symbol)

/** Task 3: HUBC's filings and news items in the last 30 days of each dataset. */
export const hubcRecent = () => {
  const lastFiling = filings.map((f) => f.publishedOn as string).sort().at(-1)!
  const lastNews = news.map((n) => (n.publishedAt as string).slice(0, 10)).sort().at(-1)!
  return {
    lastFiling,
    lastNews,
    filings: filings.filter((f) => f.symbol === "HUBC" && f.publishedOn > daysBefore(lastFiling, 30)).map((f) =>
      f.id as string
    ),
    news: news.filter((n) => n.symbols.includes("HUBC") && n.publishedAt.slice(0, 10) > daysBefore(lastNews, 30)).map((
      n
    ) => n.id as string)
  }
}

/** Task 4's portfolio: what is bought, at the recorded close of its day. */
export const PORTFOLIO = [
  { symbol: "OGDC", quantity: 100, trade_date: "2026-03-02" },
  { symbol: "HUBC", quantity: 200, trade_date: "2026-03-02" }
] as const

export const closeOn = (symbol: string, date: string) => rowsOf(prices[symbol]).find(([d]) => d === date)?.[1]

/** Task 4: the portfolio's worth at the last close, or at the 2026-08-04 screener price (the newer price the service may quote). */
export const portfolioWorth = (withLuck: boolean) => {
  // Task 5 buys 50 LUCK: a later transport's task 4 sees it in the portfolio.
  const held = withLuck ? [...PORTFOLIO, { symbol: "LUCK", quantity: 50 }] : PORTFOLIO
  return {
    atLastClose: held.reduce((sum, p) => sum + p.quantity * lastClose(p.symbol)[1], 0),
    atScreener: held.reduce((sum, p) => sum + p.quantity * screener0804.get(p.symbol).price, 0)
  }
}

/** Task 6: the KSE-100 close of the last session on or before 2026-05-01 (Labour Day, no session). */
export const kse100Before = (date: string) => indexRows.filter(([d]) => d <= date).at(-1)!

/** Task 7: the symbol whose registered name holds the words. */
export const symbolNamed = (words: string) =>
  universe.find((u) => u.name.toLowerCase().includes(words.toLowerCase()) && !u.isDebt)?.symbol as string

export { lastClose }
