/**
 * The market desk on the recorded data, at NOW (12 Aug 2026, when MEBL's
 * 80% interim and LUCK's 250% final are announced and their book closures
 * are ahead): the board with KSE-100's history, coloured movers, the sector
 * tone, the dividend calendar's month grid, the screener sorted by a column
 * with its labels in words, compare without a market-cap winner and with
 * prices from 100, and a pending donation.
 */
import { assert } from "@effect/vitest"
import type { Page } from "playwright-core"
import { inBrowser, type Watcher } from "./Watch.ts"

/** Waits for the real board: the page keeps asking while the server's read model is still loading. */
const boardShown = (page: Page) => page.getByRole("table", { name: "Index levels" }).waitFor({ timeout: 120_000 })

const board = async (page: Page, base: string) => {
  await page.goto(`${base}/market`)
  await boardShown(page)
  const kse = await page.getByRole("table", { name: "Index levels" }).locator("tbody tr").first().locator("th, td")
    .allTextContents()
  assert.match(kse[0] ?? "", /^KSE100/)
  // The last recorded close, 25 May 2026: 171,725.29 points.
  assert.strictEqual(kse[1], "171,725.29")
  // KSE-100's history: the legend shows the last close before any hover, never "--".
  await page.locator("#index-chart canvas").waitFor()
  const legend = (await page.locator("#index-history .u-legend").textContent()) ?? ""
  assert.include(legend, "25 May 2026")
  assert.include(legend, "171,725.29")
  // Over 1Y: from 118,221.12 (26 May 2025) to 171,725.29 is +45.26% (171725.29 / 118221.12 = 1.45258).
  assert.include((await page.locator("#index-history dl.facts").textContent()) ?? "", "+45.26%")
  await page.getByRole("group", { name: "Index history range" }).getByRole("button", { name: "1M" }).click()
  await page.locator("#index-history button[aria-pressed=true]", { hasText: "1M" }).waitFor()
  // Movers: a gainer's change is green (pos), a loser's red (neg).
  assert.strictEqual(
    await page.getByRole("table", { name: "Top gainers" }).locator("tbody tr td:nth-child(3) span").first()
      .getAttribute("class"),
    "pos"
  )
  assert.strictEqual(
    await page.getByRole("table", { name: "Top losers" }).locator("tbody tr td:nth-child(3) span").first().getAttribute(
      "class"
    ),
    "neg"
  )
  await page.locator("#tone-chart canvas").waitFor()
  await page.getByRole("table", { name: "Sector board" }).waitFor()
  const banks = await page.getByRole("table", { name: "Sector board" }).locator("tr").filter({
    hasText: "COMMERCIAL BANKS"
  }).locator("td").allTextContents()
  assert.strictEqual(banks[0], "0807")
}

const calendar = async (page: Page) => {
  // Open today: LUCK's final (book closure 18 Aug 2026, last buy 13 Aug) and MEBL's interim (19 Aug, last buy 17 Aug).
  await page.locator("#calendar-table").waitFor()
  const open = await page.locator("#calendar-table tbody th").allTextContents()
  assert.deepStrictEqual(open.map((s) => s.trim()).sort(), ["LUCK", "MEBL"])
  // The month grid opens on August 2026, the nearest closures marked on their first day.
  const grid = page.locator("#calendar-grid")
  assert.strictEqual(await grid.locator("td.has").filter({ hasText: "LUCK" }).locator(".day").textContent(), "18")
  assert.strictEqual(await grid.locator("td.has").filter({ hasText: "MEBL" }).locator(".day").textContent(), "19")
  assert.strictEqual(await grid.locator("td.today .day").textContent(), "12")
  await page.getByRole("button", { name: /← Jul 2026/ }).click()
  await page.locator(".grid-nav strong", { hasText: "Jul 2026" }).waitFor()
}

const screener = async (page: Page, base: string) => {
  await page.goto(`${base}/screener`)
  // Results come first, every security until a filter is set.
  await page.locator("#screen-table").waitFor()
  await page.getByLabel("Dividend yield at least (%)").fill("8")
  await page.getByRole("button", { name: "Screen", exact: true }).click()
  await page.locator("#screen-status", { hasText: "Dividend yield at least (%)" }).waitFor()
  const status = (await page.locator("#screen-status").textContent()) ?? ""
  assert.notInclude(status, "dividend_yield_min", "the parameter's name never shows")
  assert.match(
    status,
    /^\d+ securities match; showing \d+, by Symbol \(lowest first\)\. Left out because a filtered figure is unknown: \d+ \(Dividend yield at least \(%\): \d+\)\.$/
  )
  // Sorting by yield: highest first, every match at least 8%.
  await page.getByRole("button", { name: "Yield" }).click()
  await page.locator("#screen-table th[aria-sort=descending]", { hasText: "Yield" }).waitFor()
  const yields = (await page.locator("#screen-table tbody tr td:nth-child(5)").allTextContents()).map((y) =>
    Number(y.replace("%", "").replaceAll(",", ""))
  )
  assert.isAbove(yields.length, 10)
  for (const y of yields) assert.isAtLeast(y, 8)
  assert.deepStrictEqual(yields, [...yields].sort((a, b) => b - a))
  // Sorted by market cap (the largest names first), every column still shows at 1440 px, the last one included.
  await page.getByRole("button", { name: "Mkt cap (Rs)" }).click()
  await page.locator("#screen-table th[aria-sort=descending]", { hasText: "Mkt cap" }).waitFor()
  const wrap = page.locator("#screen-table").locator("xpath=ancestor::div[contains(@class, 'table-wrap')]")
  assert.isTrue(await wrap.evaluate((w) => w.scrollWidth <= w.clientWidth), "the screener fits, sorted by market cap")
  assert.isTrue(await page.locator("#screen-table th", { hasText: "Off 20-day high" }).isVisible())
}

const compare = async (page: Page, base: string, watcher: Watcher) => {
  await page.goto(`${base}/compare`)
  await page.getByLabel(/Symbols/).fill("HBL, MEBL")
  await page.getByRole("button", { name: "Compare" }).click()
  await page.locator("#compare-table").waitFor()
  assert.match((await page.locator("#compare-table tbody").textContent()) ?? "", /band [1-5]\/5/)
  // Market cap is shown for scale, never won.
  const cap = page.locator("#compare-table tbody tr").filter({ hasText: "Market cap" })
  assert.include((await cap.textContent()) ?? "", "not scored")
  assert.strictEqual(await cap.locator(".badge").count(), 0)
  assert.match(
    (await page.locator("#compare-leader").textContent()) ?? "",
    /^Measures where each is stronger: HBL \d, MEBL \d of 6\./
  )
  // Prices from 100 on the first day both traded.
  await page.locator("#compare-chart canvas").waitFor()
  assert.match(
    (await page.locator("#compare-chart").getAttribute("aria-label")) ?? "",
    /^Prices rebased to 100 from \d+ \w+ \d{4}: HBL [\d.]+, MEBL [\d.]+$/
  )
  await page.getByLabel(/Symbols/).fill("HBL MEBL UBL")
  await page.getByRole("button", { name: "Compare" }).click()
  await page.getByRole("table", { name: "HBL, MEBL, UBL compared" }).waitFor()
  assert.isAbove(await page.locator("#compare-table td.winner").count(), 0)
  assert.strictEqual(
    await page.locator("#compare-table tbody tr").filter({ hasText: "Market cap" }).locator("td.winner").count(),
    0
  )
  watcher.expectStatus([400])
  await page.getByLabel(/Symbols/).fill("HBL")
  await page.getByRole("button", { name: "Compare" }).click()
  await page.locator("#compare-error", { hasText: "Not compared." }).waitFor()
  watcher.expectStatus([])
}

/** A section whose call fails says so in words, keeps the code under "Details", and "Try again" loads it. */
const retry = async (page: Page, base: string, watcher: Watcher) => {
  watcher.expectStatus([500])
  await page.route(
    "**/v1/sectors/board",
    (route) =>
      route.fulfill({ status: 500, json: { error: "INTERNAL", message: "internal error; quote request id test-1" } })
  )
  await page.goto(`${base}/market`)
  const box = page.locator("#sectors .error-box")
  await box.waitFor()
  assert.strictEqual(
    await box.locator("p").first().textContent(),
    "Something went wrong on the service. Try again; if it keeps happening, quote the details below."
  )
  assert.strictEqual(await box.locator("details p").textContent(), "INTERNAL: internal error; quote request id test-1")
  await page.unrouteAll()
  watcher.expectStatus([])
  await page.locator("#sectors").getByRole("button", { name: "Try again" }).click()
  await page.getByRole("table", { name: "Sector board" }).waitFor()
}

export const marketDesk = (base: string) =>
  inBrowser(base, async ({ page, watcher }) => {
    await retry(page, base, watcher)
    await board(page, base)
    await calendar(page)
    await screener(page, base)
    await compare(page, base, watcher)
    // Donations: a pending pledge, no payment; a refused amount shows the API's message.
    await page.goto(`${base}/donate`)
    watcher.expectStatus([400])
    await page.getByLabel("Amount (rupees)").fill("0")
    await page.getByRole("button", { name: "Record the pending donation" }).click()
    await page.locator("#donate-error", { hasText: "INVALID_REQUEST" }).waitFor()
    watcher.expectStatus([])
    await page.getByLabel("Amount (rupees)").fill("1500")
    await page.getByRole("button", { name: "Record the pending donation" }).click()
    await page.getByText("Recorded as pending. No payment was taken.").waitFor()
    assert.include((await page.locator("#donate-result").textContent()) ?? "", "Rs 1,500 (PKR)")
  })
