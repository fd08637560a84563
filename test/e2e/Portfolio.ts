/**
 * A multi-stock portfolio made through the API, for the browser tests and
 * the screenshots: eight symbols bought at their recorded closes (read from
 * the service, never invented), a sale, a dividend as on the warrant, a
 * dividend recorded from its entitlement (per share), a bonus with its book
 * closure and a pending donation. Returns the token and what was recorded.
 */

interface Close {
  readonly date: string
  readonly close: number
}

const json = async (r: Response) => {
  const text = await r.text()
  if (!r.ok) throw new Error(`${r.status} ${r.url}: ${text.slice(0, 300)}`)
  return JSON.parse(text) as any
}

/** The recorded close of `symbol` on `date`, or on the last trading day before it. */
export const closeOnOrBefore = async (base: string, symbol: string, date: string): Promise<Close> => {
  const body = await json(await fetch(`${base}/v1/prices/${symbol}?date_to=${date}&limit=5`))
  const row = (body.items as Array<{ date: string; close?: number; flag?: string }>).find((r) =>
    r.flag === undefined && typeof r.close === "number"
  )
  if (!row) throw new Error(`no close of ${symbol} on or before ${date}`)
  return { date: row.date, close: row.close! }
}

/** The last recorded close of `symbol`. */
export const lastClose = async (base: string, symbol: string): Promise<Close> =>
  closeOnOrBefore(base, symbol, "2099-12-31")

export interface Made {
  readonly token: string
  /** Shares held at the end, by symbol, as worked out by hand below. */
  readonly shares: Readonly<Record<string, number>>
  readonly buys: ReadonlyArray<
    { readonly symbol: string; readonly date: string; readonly price: number; readonly quantity: number }
  >
  readonly warrant: { readonly symbol: string; readonly gross: number; readonly tax: number; readonly date: string }
}

/**
 * The trades, each on the last trading day on or before the date named, at
 * that day's close. Entitlements follow from the recorded payouts: MCB's 90%
 * interim (book closure 22 Aug 2025), MEBL's 70% final (25 Mar 2026), 75%
 * (6 May 2026) and 80% (19 Aug 2026), LUCK's 250% final (18 Aug 2026).
 */
const BUYS: ReadonlyArray<readonly [string, string, number]> = [
  ["OGDC", "2025-05-26", 100],
  ["MCB", "2025-08-01", 100],
  ["HBL", "2025-10-01", 300],
  ["HUBC", "2025-11-03", 150],
  ["SYS", "2026-01-05", 200],
  ["MEBL", "2026-03-02", 200],
  ["LUCK", "2026-03-02", 50],
  ["BOP", "2026-04-01", 1000]
]

export const makePortfolio = async (base: string): Promise<Made> => {
  const { token } = await json(await fetch(`${base}/v1/me/session`, { method: "POST" }))
  const post = async (body: unknown) =>
    json(
      await fetch(`${base}/v1/me/transactions`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(body)
      })
    )
  await post({ kind: "tax_status", trade_date: "2024-07-01", filer: true })
  const buys = []
  for (const [symbol, date, quantity] of BUYS) {
    const at = await closeOnOrBefore(base, symbol, date)
    await post({
      kind: "buy",
      symbol,
      trade_date: at.date,
      quantity,
      price: at.close,
      fees: Math.round(quantity * at.close * 0.0015 * 100) / 100
    })
    buys.push({ symbol, date: at.date, price: at.close, quantity })
  }
  // A sale: 100 of the 300 HBL.
  const sale = await closeOnOrBefore(base, "HBL", "2026-02-02")
  await post({ kind: "sell", symbol: "HBL", trade_date: sale.date, quantity: 100, price: sale.close })
  // MCB's interim as the warrant shows it: Rs 9 a share (90% of Rs 10) on 100 shares = 900 gross, 15% = 135 withheld, 765 net.
  const warrant = { symbol: "MCB", gross: 900, tax: 135, date: "2025-09-05" }
  await post({
    kind: "dividend",
    symbol: "MCB",
    trade_date: warrant.date,
    book_closure_from: "2025-08-22",
    gross_amount: warrant.gross,
    tax_withheld: warrant.tax
  })
  // A bonus with its book closure: 10% on the 200 SYS held = 20 shares.
  await post({ kind: "bonus", symbol: "SYS", trade_date: "2026-03-20", book_closure_from: "2026-03-20", percent: 10 })
  // MEBL's 70% final recorded from its entitlement (per share, amounts computed by the server).
  const ents = await json(await fetch(`${base}/v1/me/entitlements`, { headers: { authorization: `Bearer ${token}` } }))
  const final = (ents.items as Array<{ id: string; symbol: string; book_closure_from: string }>).find((e) =>
    e.symbol === "MEBL" && e.book_closure_from === "2026-03-25"
  )
  if (final) {
    await json(
      await fetch(`${base}/v1/me/entitlements/${final.id}/accept`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}` }
      })
    )
  }
  // A pending donation (the public donations ledger).
  await json(
    await fetch(`${base}/v1/donations`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ amount: 1500, currency: "PKR", note: "e2e" })
    })
  )
  return {
    token,
    shares: { OGDC: 100, MCB: 100, HBL: 200, HUBC: 150, SYS: 220, MEBL: 200, LUCK: 50, BOP: 1000 },
    buys,
    warrant
  }
}
