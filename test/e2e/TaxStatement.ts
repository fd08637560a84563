/**
 * The tax-year statement page (/portfolio/tax) over the portfolio
 * Portfolio.ts makes, plus a donation in its own ledger: every figure shown
 * is the route's (GET /v1/me/tax-statement), and the main ones are worked
 * by hand here from the recorded closes and the warrant. At NOW (12 Aug
 * 2026) the last complete tax year, 2026 (1 Jul 2025 to 30 Jun 2026), is
 * shown first; the donation, recorded today, is in 2027's.
 */
import { assert } from "@effect/vitest"
import type { Page } from "playwright-core"
import { dayText } from "./Performance.ts"
import type { Made } from "./Portfolio.ts"

const exact = (v: number) =>
  new Intl.NumberFormat("en-PK", { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(v)
const whole = (v: number) => new Intl.NumberFormat("en-PK", { maximumFractionDigits: 0 }).format(v)
const signed = (v: number) => `${v > 0 ? "+" : v < 0 ? "−" : ""}${exact(Math.abs(v))}`
const cells = (page: Page, id: string, part = "tbody") =>
  page.locator(`#${id} ${part} tr`).evaluateAll((trs) =>
    trs.map((tr) => Array.from(tr.querySelectorAll("th, td"), (c) => (c.textContent ?? "").trim()))
  )

const statementOf = async (base: string, token: string, year: number) =>
  (await (await fetch(`${base}/v1/me/tax-statement?tax_year=${year}`, {
    headers: { authorization: `Bearer ${token}` }
  })).json()) as any

/** Records the donation the statement of 2027 lists: Rs 1,000 in this portfolio's own ledger. */
export const donateFromPortfolio = async (base: string, token: string) => {
  const r = await fetch(`${base}/v1/me/donations`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ amount: 1000, currency: "PKR", note: "tax e2e" })
  })
  assert.strictEqual(r.status, 200, await r.text())
}

/** Tax year 2026, the one shown first: the page's tables against the route and against the hand-worked figures. */
const year2026 = async (page: Page, base: string, made: Made) => {
  await page.locator("#tax-needs").waitFor()
  assert.strictEqual(await page.locator("#tax-year").inputValue(), "2026")
  assert.strictEqual(await page.locator("#h-year").textContent(), "Tax year 2026: 1 Jul 2025 to 30 Jun 2026")
  const st = await statementOf(base, made.token, 2026)
  // The sale: 100 of the 300 HBL bought on 1 Oct 2025 (price p, fees 0.15%), sold on 2 Feb 2026 at its close.
  // Cost = 100 × (300p + fees) / 300, to the paisa; held 1 Oct 2025 → 2 Feb 2026 = 30 + 30 + 31 + 31 + 2 = 124 days.
  const hbl = made.buys.find((b) => b.symbol === "HBL")!
  const fees = Math.round(hbl.quantity * hbl.price * 0.0015 * 100) / 100
  const cost = Math.round(((100 * (hbl.quantity * hbl.price + fees)) / hbl.quantity) * 100) / 100
  const sale = st.sales[0]
  assert.deepStrictEqual([st.sales.length, sale.cost, sale.holding_days_min, sale.gain], [
    1,
    cost,
    124,
    Math.round((sale.proceeds - cost) * 100) / 100
  ])
  const sold = (await cells(page, "tax-sales"))[0]!
  assert.deepStrictEqual([sold[0], sold[1], sold[2], sold[4], sold[6], sold[7]], [
    "HBL",
    `2 Feb 2026settled ${dayText(sale.settlement_date)}`,
    "100",
    exact(sale.proceeds),
    signed(sale.gain),
    "124 days100 bought 1 Oct 2025"
  ])
  assert.include(sold[5]!, exact(cost))
  // A filer who bought from 1 Jul 2024: 15% of the gain, to the paisa.
  assert.include(sold[8]!, `Rs ${exact(Math.round(sale.gain * 15) / 100)}`)
  // Dividends: MCB's warrant (900 gross, 135 withheld, 765 net); MEBL's 70% final, Rs 7 × 200 = 1,400, 15% = 210, 1,190 net.
  assert.deepStrictEqual((await cells(page, "tax-dividends")).map((r) => [r[0], r[1], r[5], r[6], r[7]]), [
    ["MCB", "5 Sep 2025", "900.00", "135.00", "765.00"],
    ["MEBL", "27 Mar 2026", "1,400.00", "210.00", "1,190.00"]
  ])
  assert.deepStrictEqual((await cells(page, "tax-dividends", "tfoot")).map((r) => [r[0], r[5], r[6], r[7]]), [[
    "Total, 2 payouts",
    "2,300.00",
    "345.00",
    "1,955.00"
  ]])
  // The bonus: 10% on the 200 SYS held = 20 shares, at zero cost.
  assert.deepStrictEqual((await cells(page, "tax-bonuses")).map((r) => [r[0], r[2], r[3], r[4]]), [[
    "SYS",
    "10%",
    "20",
    "Rs 0.00"
  ]])
  assert.strictEqual(await page.locator("#tax-donations").count(), 0, "no donation recorded in 2026")
  // What a return asks for: each item with the route's figure (the bonus's in shares).
  assert.deepStrictEqual(
    (await cells(page, "tax-needs")).map((r) => [r[0], r[1]]),
    // The page writes the route's ISO dates as people read them ("2026-06-30" → "30 Jun 2026").
    st.return_needs.map((
      n: any
    ) => [readable(n.item), /^Shares, not rupees/.test(n.note) ? `${n.amount} shares` : `Rs ${exact(n.amount)}`])
  )
  assert.deepStrictEqual(st.return_needs.slice(0, 3).map((n: any) => n.amount), [sale.gain, 2300, 345])
  // Positions at the year's end, each at the route's cost.
  assert.deepStrictEqual(
    (await cells(page, "tax-positions")).map((r) => [r[0], r[1], r[2]]),
    st.closing_positions.map((p: any) => [p.symbol, whole(p.quantity), exact(p.cost)])
  )
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
const readable = (text: string) =>
  text.replace(/\b(\d{4})-(\d{2})-(\d{2})\b/g, (_, y, m, d) => `${Number(d)} ${MONTHS[Number(m) - 1]} ${y}`)

/** Tax year 2027, in progress: the donation recorded today, pending. */
const year2027 = async (page: Page) => {
  await page.locator("#tax-year").selectOption("2027")
  await page.waitForURL(/tax_year=2027/)
  await page.locator("#tax-donations").waitFor()
  assert.strictEqual(await page.locator("#h-year").textContent(), "Tax year 2027: 1 Jul 2026 to 30 Jun 2027")
  assert.include((await page.locator("#tax-statement").textContent()) ?? "", "in progress")
  assert.deepStrictEqual((await cells(page, "tax-donations")).map((r) => r.slice(0, 4)), [[
    "12 Aug 2026",
    "Rs 1,000.00",
    "pending",
    "tax e2e"
  ]])
  assert.include((await page.locator("#tax-statement").textContent()) ?? "", "No sales in this tax year.")
}

/** From the portfolio page's link; checked at the page's size; printing shows the statement alone. */
export const taxStatement = async (page: Page, base: string, made: Made) => {
  await page.getByRole("link", { name: "Tax-year statement" }).click()
  await page.waitForURL(`${base}/portfolio/tax`)
  await year2026(page, base, made)
  await page.emulateMedia({ media: "print" })
  assert.deepStrictEqual(
    [
      await page.locator("header.site").isVisible(),
      await page.locator("#tax-form").isVisible(),
      await page.locator("#tax-sales").isVisible()
    ],
    [false, false, true],
    "printed: the statement without the header and the picker"
  )
  await page.emulateMedia({ media: "screen" })
  await year2027(page)
}
