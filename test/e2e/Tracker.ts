/**
 * The portfolio page as a tracker, over the portfolio Portfolio.ts makes
 * through the API (eight symbols, a sale, a warrant dividend, a dividend
 * recorded from its entitlement, a bonus), at NOW (12 Aug 2026). Expected
 * figures are worked by hand from the recorded closes and payouts.
 */
import { assert } from "@effect/vitest"
import type { Page } from "playwright-core"
import { lastClose, makePortfolio } from "./Portfolio.ts"
import { openDialog, tradesFor } from "./Scenario.ts"
import { doneLoading, holdToken, inBrowser } from "./Watch.ts"

const rows = (page: Page) => page.locator("#holdings-table tbody tr:not(.detail)")
const cells = (page: Page, symbol: string) => rows(page).filter({ hasText: symbol }).locator("td").allTextContents()
const facts = async (page: Page, scope: string) => {
  const dts = await page.locator(`${scope} dl.facts`).first().locator("dt").allTextContents()
  const dds = await page.locator(`${scope} dl.facts`).first().locator("dd").allTextContents()
  return Object.fromEntries(dts.map((d, i) => [d, dds[i]]))
}
const tableRows = (page: Page, id: string) =>
  page.locator(`#${id} tbody tr`).evaluateAll((trs) =>
    trs.map((tr) => Array.from(tr.querySelectorAll("th, td"), (c) => (c.textContent ?? "").trim()))
  )
const group = (n: number) => new Intl.NumberFormat("en-PK", { maximumFractionDigits: 0 }).format(n)

const holdings = async (page: Page, base: string, shares: Readonly<Record<string, number>>) => {
  await page.locator("#holdings-table").waitFor()
  const held = Object.fromEntries(
    await rows(page).evaluateAll((trs) =>
      trs.map((
        tr
      ) => [
        tr.querySelector("th a")?.textContent ?? "",
        Number(tr.querySelector("td")?.textContent?.replaceAll(",", ""))
      ])
    )
  )
  // SYS: 200 bought + a 10% bonus = 220; HBL: 300 bought − 100 sold = 200.
  assert.deepStrictEqual(held, shares)
  // OGDC: 100 at 208.95 on 26 May 2025 (fees 0.15% = 31.34), worth 100 × 330.05 = 33,005 at the last close;
  // 33,005 − 20,926.34 = +12,078.66 (shown in whole rupees), 12,078.66 / 20,926.34 = +57.72%.
  const ogdc = await cells(page, "OGDC")
  // The return with dividends adds OGDC's net dividends (none recorded): (12,078.66 + 0) / 20,926.34 = +57.72%.
  assert.deepStrictEqual([ogdc[0], ogdc[1], ogdc[2], ogdc[4], ogdc[5], ogdc[6]], [
    "100",
    "209.26",
    "330.05",
    "33,005",
    "+12,079+57.72%",
    "+57.72%"
  ])
  // MEBL's day: 200 × (490.20 − 479.56) = +2,128, and 10.64 / 479.56 = +2.22%.
  assert.strictEqual((await cells(page, "MEBL"))[3], "+2,128+2.22%")
  // The market value card: each holding at its last recorded close, summed.
  const closes = await Promise.all(Object.keys(shares).map(async (s) => [s, (await lastClose(base, s)).close] as const))
  const values = closes.map(([s, c]) => [s, shares[s]! * c] as const)
  assert.include(
    (await page.locator("#cards .card").first().textContent()) ?? "",
    `Rs ${group(values.reduce((a, [, v]) => a + v, 0))}`
  )
  // At 1440 px every column shows without scrolling sideways.
  assert.isTrue(
    await page.locator(".table-wrap.holdings").evaluate((w) => w.scrollWidth <= w.clientWidth),
    "the holdings table fits at 1440 px"
  )
  // Sorting by market value, largest first; the expandable row stays under its position.
  await page.locator("#holdings-table th button", { hasText: "Market value" }).click()
  const order = await rows(page).locator("th a").allTextContents()
  assert.deepStrictEqual(order, [...values].sort((a, b) => b[1] - a[1]).map(([s]) => s))
  await page.getByRole("button", { name: "More about OGDC" }).click()
  const detail = page.locator("#holding-OGDC")
  assert.isTrue(await detail.isVisible())
  assert.include((await detail.textContent()) ?? "", "CostRs 20,926")
  // OGDC's payouts are not recorded here: its yield is unknown, and the way on is its warrant.
  await detail.getByRole("button", { name: "Add a OGDC dividend from your warrant" }).click()
  await page.locator("#tx-dialog[open]").waitFor()
  assert.deepStrictEqual([await page.locator("#tx-kind").inputValue(), await page.locator("#tx-symbol").inputValue()], [
    "dividend",
    "OGDC"
  ])
  await page.locator("#tx-dialog").getByRole("button", { name: "Close" }).click()
}

const income = async (page: Page, net: string, months: Array<Array<string>>) => {
  await page.locator("#income-table").waitFor()
  const f = await facts(page, "#income")
  assert.strictEqual(f["Received, net"], net)
  assert.deepStrictEqual(await tableRows(page, "income-table"), months)
}

const inbox = async (page: Page) => {
  // Due at NOW: MEBL's 75% first interim (book closure 6 May 2026), 7.50 a share on the 200 held at 4 May:
  // 1,500 gross, 15% (a filer) = 225 withheld, 1,275 net. The 80% interim's last buy date (17 Aug) is still ahead.
  const due = await tableRows(page, "inbox-table")
  assert.strictEqual(due.length, 1)
  assert.deepStrictEqual(due[0]!.slice(0, 4), [
    "MEBL",
    "75%(i) (D): Rs 7.50 a share on 200 shares",
    "6 May 2026shares held at 4 May 2026",
    "Rs 1,500 gross, Rs 1,275 net"
  ])
  await page.getByRole("button", { name: "Record it: MEBL 75%(i) (D)" }).click()
  await page.locator("#inbox-empty").waitFor()
  // Upcoming, by book closure: LUCK's final (18 Aug 2026) and MEBL's 80% interim (19 Aug 2026).
  assert.deepStrictEqual((await tableRows(page, "income-upcoming")).map((r) => [r[0], r[3]]), [
    ["LUCK", "18 Aug 2026"],
    ["MEBL", "19 Aug 2026"]
  ])
}

/** The inbox's setting: on from today (nothing falls due today, so nothing is recorded at once), then off again. */
const autoRecordSetting = async (page: Page, base: string, token: string) => {
  const toggle = page.getByLabel("Record payouts automatically as they fall due")
  assert.isFalse(await toggle.isChecked())
  const put = page.waitForResponse((r) => r.url().endsWith("/v1/me/settings") && r.request().method() === "PUT")
  await toggle.check()
  assert.strictEqual((await put).status(), 200)
  await page.locator("#auto-record-status", { hasText: "On since 12 Aug 2026" }).waitFor()
  const settings =
    (await (await fetch(`${base}/v1/me/settings`, { headers: { authorization: `Bearer ${token}` } })).json()) as Record<
      string,
      unknown
    >
  assert.deepStrictEqual([settings["auto_record_entitlements"], settings["auto_record_since"]], [true, "2026-08-12"])
  await toggle.uncheck()
  await page.locator("#auto-record-status", { hasText: "Off: each payout waits" }).waitFor()
}

const history = async (page: Page) => {
  const dates = await page.locator("#history-table tbody tr th").allTextContents()
  const iso = dates.map((d) => new Date(`${d} UTC`).toISOString().slice(0, 10))
  assert.deepStrictEqual(iso, [...iso].sort().reverse(), "by trade date, newest first")
  assert.strictEqual(dates[0], "7 May 2026", "the dividend just recorded, credited at the end of its book closure")
  await page.locator("#history-symbol").selectOption("MEBL")
  assert.deepStrictEqual(await page.locator("#history-table tbody tr td:nth-child(2)").allTextContents(), [
    "Dividend",
    "Dividend",
    "Buy"
  ])
  await page.locator("#history-symbol").selectOption("")
}

const addTrade = async (page: Page) => {
  await openDialog(page)
  const dialog = page.locator("#tx-dialog")
  // Suggestions: a word of the company's name offers its ticker.
  await dialog.getByLabel("Symbol").fill("meezan")
  await page.locator("#tx-symbol-list option[value=MEBL]").waitFor({ state: "attached" })
  await dialog.getByLabel("Symbol").fill("MEBL")
  await dialog.getByLabel("Trade date").fill("2026-05-25")
  // That day's recorded close is filled in as the price: 490.20.
  await page.waitForFunction(() => (document.getElementById("tx-price") as HTMLInputElement).value === "490.2")
  assert.include((await page.locator("#tx-trade_date-hint").textContent()) ?? "", "Monday, 25 May 2026")
  // A Sunday: the exchange does not trade, so the filled-in price goes rather than stand for that day.
  await dialog.getByLabel("Trade date").fill("24 May 2026")
  await page.locator("#tx-price-hint", { hasText: "Sunday, 24 May 2026 is a weekend" }).waitFor()
  assert.strictEqual(await dialog.getByLabel("Price (rupees per share)").inputValue(), "")
  await dialog.getByLabel("Trade date").fill("25/05/2026")
  await page.waitForFunction(() => (document.getElementById("tx-price") as HTMLInputElement).value === "490.2")
  await dialog.getByLabel("Quantity (shares)").fill("10")
  await dialog.getByRole("button", { name: "Record", exact: true }).click()
  await page.locator("#tx-result.ok").waitFor()
  assert.include((await page.locator("#tx-result").textContent()) ?? "", "Recorded: Buy MEBL 10 at Rs 490.20")
  // Recorded: the price hint no longer speaks of the close it filled in.
  assert.notInclude((await page.locator("#tx-price-hint").textContent()) ?? "", "MEBL's close")
  await dialog.getByRole("button", { name: "Close" }).click()
  await page.waitForFunction(() =>
    Array.from(document.querySelectorAll("#holdings-table tbody tr:not(.detail)")).some((tr) =>
      tr.querySelector("th a")?.textContent === "MEBL" && tr.querySelector("td")?.textContent === "210"
    )
  )
}

/** Edit: the 25 May buy of 10 MEBL corrected to 15 in one step, a reversal with its reason and the new entry. */
const editInOneStep = async (page: Page, base: string) => {
  await page.locator("#history-symbol").selectOption("MEBL")
  await page.getByRole("button", { name: "Edit Buy MEBL of 25 May 2026" }).click()
  const dialog = page.locator("#tx-dialog")
  assert.strictEqual(await dialog.getByLabel("Quantity (shares)").inputValue(), "10")
  assert.strictEqual(await dialog.getByLabel("Trade date").inputValue(), "25 May 2026")
  await dialog.getByLabel("Quantity (shares)").fill("15")
  await dialog.getByLabel("Reason for the correction").fill("the contract note says 15")
  await dialog.getByRole("button", { name: "Record the correction" }).click()
  await page.locator("#tx-result.ok").waitFor()
  await dialog.getByRole("button", { name: "Close" }).click()
  // 210 − 10 reversed + 15 = 215.
  await page.waitForFunction(() =>
    Array.from(document.querySelectorAll("#holdings-table tbody tr:not(.detail)")).some((tr) =>
      tr.querySelector("th a")?.textContent === "MEBL" && tr.querySelector("td")?.textContent === "215"
    )
  )
  const events = ((await (await page.context().request.get(`${base}/v1/me/ledger?limit=1000`)).json()) as {
    items: Array<{ version: number; type: string; payload: Record<string, unknown> }>
  }).items
  const [reversal, entry] = [...events].sort((a, b) => a.version - b.version).slice(-2)
  assert.deepStrictEqual([reversal?.type, reversal?.payload["reason"], entry?.type, entry?.payload["quantity"]], [
    "TransactionReversed",
    "the contract note says 15",
    "TradeRecorded",
    15
  ])
}

/** The ledger as its events say, ids and times aside: what an export then import must reproduce. */
const ledgerOf = async (page: Page, base: string) => {
  const body = (await (await page.context().request.get(`${base}/v1/me/ledger?limit=1000`)).json()) as {
    items: Array<{ type: string; effective_date: string; payload: Record<string, unknown> }>
  }
  // As a set (sorted): an import stores its rows in date order, so a ledger recorded out of date order comes back
  // with the same events in that order.
  return body.items.map((e) => ({
    type: e.type,
    date: e.effective_date,
    symbol: e.payload["symbol"] ?? null,
    quantity: e.payload["quantity"] ?? null
  })).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))
}

/**
 * A broker's statement as brokers write it (day-first dates, "1,000", BUY in capitals, Rate and Commission), imported
 * after the mapping step shows how its columns are read.
 */
export const brokerImport = async (page: Page, base: string) => {
  const { token } = (await (await fetch(`${base}/v1/me/session`, { method: "POST" })).json()) as { token: string }
  await holdToken(page, base, token)
  const trades = await tradesFor(base, "FFC")
  const dmy = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`
  const file = `Date,Type,Symbol,Qty,Rate,Commission\r\n${
    dmy(trades.buy.date)
  },BUY,FFC,"1,000",${trades.buy.price},150\r\n`
  await page.goto(`${base}/portfolio`)
  await page.locator("#import-file").setInputFiles({
    name: "statement.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(file)
  })
  await page.getByRole("button", { name: "Check the file" }).click()
  await page.locator("#import-mapping-table").waitFor()
  assert.strictEqual(await page.getByLabel("Read “Qty” as").inputValue(), "quantity")
  assert.strictEqual(await page.getByLabel("Read “Rate” as").inputValue(), "price")
  assert.strictEqual(
    await page.getByLabel("Read “Commission” as").inputValue(),
    "fees (added)",
    "a charge, added to the fees"
  )
  assert.strictEqual(
    await page.locator("#import-summary").textContent(),
    "1 row read: 1 would be recorded, 0 already recorded (skipped), 0 refused."
  )
  await page.getByRole("button", { name: "Import 1 transaction" }).click()
  await page.locator("#import-done").waitFor()
  await page.waitForFunction(() =>
    Array.from(document.querySelectorAll("#holdings-table tbody tr:not(.detail)")).some((tr) =>
      tr.querySelector("th a")?.textContent === "FFC" && tr.querySelector("td")?.textContent === "1,000"
    )
  )
}

/** Export, then import into a new portfolio: the same holdings and the same ledger. */
const csvRoundTrip = async (page: Page, base: string, shares: Readonly<Record<string, number>>) => {
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Export transactions (CSV)" }).click()
  ])
  const text = await new Response((await download.createReadStream()) as unknown as ReadableStream).text()
  const before = await ledgerOf(page, base)
  const lines = text.trim().split("\r\n")
  assert.match(lines[0] ?? "", /^trade_date,kind,symbol,quantity,price,fees,/)
  const { token } = (await (await fetch(`${base}/v1/me/session`, { method: "POST" })).json()) as { token: string }
  await holdToken(page, base, token)
  await page.goto(`${base}/portfolio`)
  await page.locator("#import-file").setInputFiles({
    name: "export.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(text)
  })
  await page.getByRole("button", { name: "Check the file" }).click()
  await page.locator("#import-summary").waitFor()
  const rowsRead = lines.length - 1
  assert.strictEqual(
    await page.locator("#import-summary").textContent(),
    `${rowsRead} rows read: ${rowsRead} would be recorded, 0 already recorded (skipped), 0 refused.`
  )
  await page.getByRole("button", { name: `Import ${rowsRead} transactions` }).click()
  await page.locator("#import-done").waitFor()
  await page.waitForFunction(
    (n) => document.querySelectorAll("#holdings-table tbody tr:not(.detail)").length === n,
    Object.keys(shares).length
  )
  const held = Object.fromEntries(
    await rows(page).evaluateAll((trs) =>
      trs.map((
        tr
      ) => [
        tr.querySelector("th a")?.textContent ?? "",
        Number(tr.querySelector("td")?.textContent?.replaceAll(",", ""))
      ])
    )
  )
  assert.deepStrictEqual(held, shares)
  assert.deepStrictEqual(await ledgerOf(page, base), before, "the same events")
}

const symbolPanel = async (page: Page, base: string) => {
  await page.goto(`${base}/market/MEBL`)
  await page.locator("#position-events").waitFor()
  const f = await facts(page, "#position")
  assert.strictEqual(f["Shares held"], "210")
  assert.deepStrictEqual(await page.locator("#position-events tbody th").allTextContents(), [
    "25 May 2026",
    "7 May 2026",
    "27 Mar 2026",
    "2 Mar 2026"
  ])
  await page.locator("#chart canvas").waitFor()
  assert.include((await page.locator("#chart-caption").textContent()) ?? "", "Triangles mark your buys")
}

export const tracker = async (base: string) => {
  const made = await makePortfolio(base)
  await inBrowser(base, async ({ page, watcher }) => {
    watcher.setToken(made.token)
    await holdToken(page, base, made.token)
    await page.goto(`${base}/portfolio`)
    await doneLoading(page)
    await holdings(page, base, made.shares)
    // MCB's warrant (900 gross, 135 withheld, 765 net) in Sep 2025; MEBL's 70% final from its entitlement,
    // 7 × 200 = 1,400 gross, 15% = 210, 1,190 net, credited 27 Mar 2026: net 765 + 1,190 = 1,955.
    await income(page, "Rs 1,955", [["Sep 2025", "900", "135", "765"], ["Mar 2026", "1,400", "210", "1,190"]])
    await inbox(page)
    await autoRecordSetting(page, base, made.token)
    // With the 75% interim recorded: net 1,955 + 1,275 = 3,230.
    await income(page, "Rs 3,230", [["Sep 2025", "900", "135", "765"], ["Mar 2026", "1,400", "210", "1,190"], [
      "May 2026",
      "1,500",
      "225",
      "1,275"
    ]])
    // The month chart keeps the months without a dividend, so Sep 2025 to May 2026 is nine slots, seven empty.
    const chartLabel =
      (await page.locator("#income-chart [aria-label], #income-chart[aria-label]").first().getAttribute(
        "aria-label"
      )) ?? ""
    assert.include(chartLabel, "Sep 2025 765; Oct 2025 none; Nov 2025 none")
    assert.include(chartLabel, "Apr 2026 none; May 2026 1275")
    // Yield on cost says how many holdings it covers.
    const yieldLabel = Object.keys(await facts(page, "#income")).find((k) => k.startsWith("Yield on cost"))
    assert.match(yieldLabel ?? "", /^Yield on cost, \d of \d holdings$/)
    assert.deepStrictEqual(await tableRows(page, "income-years"), [["2025", "1", "900", "135", "765"], [
      "2026",
      "2",
      "2,900",
      "435",
      "2,465"
    ]])
    await history(page)
    await addTrade(page)
    await symbolPanel(page, base)
    await page.goto(`${base}/portfolio`)
    await page.locator("#holdings-table").waitFor()
    await csvRoundTrip(page, base, { ...made.shares, MEBL: 210 })
    await editInOneStep(page, base)
    await brokerImport(page, base)
  })
}
