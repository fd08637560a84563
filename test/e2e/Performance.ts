/**
 * The portfolio page's performance chart, drawn from GET /v1/me/performance:
 * it reaches the last session, whose value is the holdings at their last
 * recorded closes (worked out here from the closes, not from the page);
 * since inception starts at the first trade; the headline cards and the
 * returns by period show the server's TWR, XIRR and total return; the
 * percent mode ends at the server's TWR and KSE-100 change and says KSE-100
 * is a price index; a session with a carried close is told as such.
 */
import { assert } from "@effect/vitest"
import type { Page } from "playwright-core"
import { lastClose, type Made } from "./Portfolio.ts"

const grouped = (v: number, dp: number) =>
  new Intl.NumberFormat("en-PK", { minimumFractionDigits: dp, maximumFractionDigits: dp }).format(v)
/** A decimal return as the page writes it: 0.410382 → "+41.04%" (a minus sign for a fall). */
export const pctText = (x: number) => `${x > 0 ? "+" : x < 0 ? "−" : ""}${grouped(Math.abs(x * 100), 2)}%`
const DAY = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" })
/** "2026-05-25" → "25 May 2026". */
export const dayText = (iso: string) => DAY.format(new Date(`${iso}T00:00:00Z`)).replace("Sept", "Sep")

interface Period {
  readonly period: string
  readonly from: string
  readonly to: string
  readonly covers_whole_period: boolean
  readonly twr?: number
  readonly xirr?: number
  readonly total_return?: number
  readonly kse100?: { readonly change: number }
}
interface Answer {
  readonly last_session: string
  readonly periods: ReadonlyArray<Period>
  readonly days: ReadonlyArray<{ readonly date: string; readonly value?: number }>
}

export const performanceOf = async (base: string, token: string) =>
  (await (await fetch(`${base}/v1/me/performance?days=daily`, { headers: { authorization: `Bearer ${token}` } }))
    .json()) as Answer

const label = (page: Page) => page.locator("#value-chart").getAttribute("aria-label")
const card = async (page: Page, name: string) =>
  (await page.locator("#cards .card").filter({ hasText: name }).locator(".card-value").textContent()) ?? ""

/** On /portfolio, signed in to the portfolio `made` describes. */
export const performanceChart = async (page: Page, base: string, made: Made) => {
  await page.locator("#value-chart canvas").waitFor()
  const answer = await performanceOf(base, made.token)
  // The last session: the newest of the held symbols' last recorded closes, each holding valued at its own.
  const closes = await Promise.all(Object.keys(made.shares).map((s) => lastClose(base, s).then((c) => [s, c] as const)))
  const newest = closes.map(([, c]) => c.date).sort().at(-1)!
  const worth = Math.round(closes.reduce((sum, [s, c]) => sum + made.shares[s]! * c.close * 100, 0)) / 100
  assert.strictEqual(answer.last_session, newest)
  assert.deepStrictEqual(
    [answer.days.at(-1)?.date, answer.days.at(-1)?.value],
    [newest, worth],
    "the route's last row is that session at those closes"
  )
  assert.include(
    await label(page),
    `Rs ${grouped(worth, 2)} at the close of ${dayText(newest)}`,
    "the chart reaches the last session"
  )

  const since = answer.periods.find((p) => p.period === "since_inception")!
  // Since inception starts at the first trade (the portfolio's first event is a tax status, a year earlier).
  assert.strictEqual(since.from, made.buys[0]!.date)
  const rows = await page.locator("#returns-table tbody tr").evaluateAll((trs) =>
    trs.map((tr) => Array.from(tr.querySelectorAll("th, td"), (c) => (c.textContent ?? "").trim()))
  )
  const names: Record<string, string> = {
    "1M": "1 month",
    "3M": "3 months",
    "6M": "6 months",
    YTD: "Year to date",
    "1Y": "1 year",
    since_inception: "Since inception"
  }
  const shown = answer.periods.filter((p) => p.covers_whole_period || p.period === "since_inception")
  assert.deepStrictEqual(
    rows.map((r) => [r[0], r[1], r[2], r[3], r[4]]),
    shown.map((
      p
    ) => [
      names[p.period],
      `${dayText(p.from)} to ${dayText(p.to)}`,
      pctText(p.twr!),
      pctText(p.xirr!),
      pctText(p.total_return!)
    ])
  )
  assert.deepStrictEqual(
    [
      await card(page, "Time-weighted return"),
      await card(page, "Money-weighted (XIRR)"),
      await card(page, "Total return"),
      await card(page, "Market value")
    ],
    [pctText(since.twr!), pctText(since.xirr!), pctText(since.total_return!), `Rs ${grouped(worth, 0)}`]
  )

  // Percent mode: the line chained from the rows ends at the server's TWR (no session has both a buy and a sale)
  // and KSE-100's line at its change; the caption says what KSE-100 leaves out.
  await page.getByRole("button", { name: "Return vs KSE-100 (%)" }).click()
  await page.waitForFunction(() =>
    document.getElementById("value-chart")?.getAttribute("aria-label")?.startsWith("Portfolio return")
  )
  assert.include(await label(page), `portfolio ${pctText(since.twr!)}, KSE-100 ${pctText(since.kse100!.change)}`)
  assert.include(
    (await page.locator("#value-caption").textContent()) ?? "",
    "KSE-100 is a price index: its constituents' dividends are not in it"
  )
  // A shorter period: from the close of its first session, ending at the server's figures for it.
  const month = answer.periods.find((p) => p.period === "1M")!
  await page.getByRole("button", { name: "1M", exact: true }).click()
  await page.waitForFunction(
    (from) => document.getElementById("value-chart")?.getAttribute("aria-label")?.includes(from),
    dayText(month.from)
  )
  assert.include(await label(page), `portfolio ${pctText(month.twr!)}, KSE-100 ${pctText(month.kse100!.change)}`)
}

/**
 * A held symbol without a close that session: BUXL has no row on 22 May 2026 (KSE-100 has), so that day is valued
 * at its 21 May close (151.52) and flagged. 10 BUXL and 10 OGDC bought on 20 May 2026; on 25 May 2026 they are
 * 10 × 163.10 + 10 × 330.05 = 1,631.00 + 3,300.50 = 4,931.50.
 */
export const carriedClose = async (page: Page, base: string, hold: (token: string) => Promise<void>) => {
  const { token } = (await (await fetch(`${base}/v1/me/session`, { method: "POST" })).json()) as { token: string }
  for (const [symbol, price] of [["BUXL", 151.52], ["OGDC", 318.52]] as const) {
    const r = await fetch(`${base}/v1/me/transactions`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ kind: "buy", symbol, trade_date: "2026-05-20", quantity: 10, price })
    })
    assert.strictEqual(r.status, 201, await r.text())
  }
  await hold(token)
  await page.goto(`${base}/portfolio`)
  await page.locator("#value-chart canvas").waitFor()
  assert.include(await label(page), "Rs 4,931.50 at the close of 25 May 2026")
  assert.include(
    (await page.locator("#value-flags").textContent()) ?? "",
    "BUXL had no close that session: valued at its last recorded close, on 22 May 2026."
  )
  // Pointing at 22 May (the third of four sessions, two days into the five the axis spans) tells that day's valuation.
  const over = (await page.locator("#value-chart .u-over").boundingBox())!
  await page.mouse.move(over.x + over.width * 0.4, over.y + over.height / 2)
  await page.locator("#value-day", {
    hasText: "22 May 2026: BUXL had no close that session: valued at its last recorded close."
  }).waitFor()
  await page.mouse.move(over.x + over.width * 0.99, over.y + over.height / 2)
  await page.locator("#value-day", { hasText: "25 May 2026: every held symbol at its own close that session." })
    .waitFor()
  return token
}
