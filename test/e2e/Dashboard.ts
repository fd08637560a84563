/**
 * The portfolio page beyond its figures: its phone layout (390 px) over the
 * multi-stock portfolio Portfolio.ts makes, one error box when the service
 * fails with the history still shown, and a payout whose rupees the service
 * does not know recorded from the due list with the warrant's figures.
 */
import { assert } from "@effect/vitest"
import type { Page } from "playwright-core"
import { closeOnOrBefore, type Made } from "./Portfolio.ts"
import { doneLoading, holdToken, inBrowser } from "./Watch.ts"

/**
 * The phone dashboard's height bound: nine screens of the 844 px phone for eight holdings with a sale, dividends,
 * a bonus, entitlements due, allocation and history. Before the phone layout this page was 12,787 px (every row a
 * full card, every table open, 300 px charts); a holdings list or a table left unfolded, or the cards one to a row,
 * passes it.
 */
const PHONE_MAX_HEIGHT = 7_600

const mainRows = (page: Page, table: string) => page.locator(`#${table} tbody tr:not(.detail)`)
const visibleRows = (page: Page, table: string) =>
  mainRows(page, table).evaluateAll((trs) => trs.filter((tr) => (tr as HTMLElement).offsetParent !== null).length)

export const phoneDashboard = (base: string, made: Made) =>
  inBrowser(base, async ({ page, watcher }) => {
    watcher.setToken(made.token)
    await holdToken(page, base, made.token)
    await page.goto(`${base}/portfolio`)
    await page.locator("#value-chart canvas").waitFor()
    await page.locator("#holdings-table").waitFor()
    await doneLoading(page)
    const height = await page.evaluate(() => document.documentElement.scrollHeight)
    assert.isAtMost(height, PHONE_MAX_HEIGHT, `the phone dashboard is ${height} px tall`)
    // The headline cards two to a row.
    const tops = await page.locator("#cards .card").evaluateAll((cards) =>
      cards.map((c) => Math.round(c.getBoundingClientRect().top))
    )
    assert.strictEqual(tops.length, 5)
    assert.deepStrictEqual([tops[0] === tops[1], tops[2] === tops[3], tops[1] === tops[2]], [true, true, false])
    // A short chart: at most 200 px of plot on a phone, against 300 px on a wide screen.
    const plot = await page.locator("#value-chart canvas").first().evaluate((c) => c.getBoundingClientRect().height)
    assert.isAtMost(plot, 200)
    // Eight holdings: four shown, the rest behind "Show all", and back.
    const held = Object.keys(made.shares).length
    assert.strictEqual(await mainRows(page, "holdings-table").count(), held)
    assert.strictEqual(await visibleRows(page, "holdings-table"), 4)
    await page.getByRole("button", { name: `Show all ${held} holdings` }).click()
    assert.strictEqual(await visibleRows(page, "holdings-table"), held)
    await page.getByRole("button", { name: "Show the first 4 holdings only" }).click()
    assert.strictEqual(await visibleRows(page, "holdings-table"), 4)
    // Sorting keeps the fold: the four shown are the first four in the new order.
    await page.getByLabel("Sort by").selectOption({ index: 1 })
    const shown = await mainRows(page, "holdings-table").evaluateAll((trs) =>
      trs.map((tr) => (tr as HTMLElement).offsetParent !== null)
    )
    assert.deepStrictEqual(shown, Array.from({ length: held }, (_, i) => i < 4))
    // A table beside its own chart is folded away whole, a button away.
    assert.isTrue(await page.locator("#allocation-table").isHidden())
    await page.getByRole("button", { name: `Show the table (${held} positions)` }).click()
    assert.strictEqual(await visibleRows(page, "allocation-table"), held)
  }, { width: 390, height: 844 })

/**
 * A failure of the portfolio's read: one error box saying what went wrong, every other section pointing to it,
 * and the history (which needs the ledger only) shown in full.
 */
export const oneErrorBox = (base: string, made: Made) =>
  inBrowser(base, async ({ page, watcher }) => {
    watcher.setToken(made.token)
    await holdToken(page, base, made.token)
    const ledger = (await (await page.context().request.get(`${base}/v1/me/ledger?limit=1000`)).json()) as {
      items: Array<unknown>
    }
    watcher.expectStatus([503])
    await page.route(/\/v1\/me\/portfolio\?/, (route) =>
      route.fulfill({
        status: 503,
        contentType: "application/json",
        body: JSON.stringify({ error: "SOURCE_UNAVAILABLE", message: "the store did not answer" })
      }))
    await page.goto(`${base}/portfolio`)
    await page.locator(".error-box").first().waitFor()
    await doneLoading(page)
    assert.strictEqual(await page.locator(".error-box").count(), 1, "one error box")
    assert.strictEqual(
      await page.locator(".error-box > p").first().textContent(),
      "The service is still loading its data. Try again in a moment."
    )
    // Cards, chart, holdings, entitlements, income and allocation: the first has the box, the five others point to it.
    assert.strictEqual(await page.locator(".error-note").count(), 5)
    assert.strictEqual(
      await page.locator("#history-table tbody tr").count(),
      ledger.items.length,
      "every event in the history"
    )
    assert.strictEqual(
      await page.locator("#history-status").textContent(),
      `${ledger.items.length} of ${ledger.items.length} recorded; showing ${ledger.items.length}.`
    )
    watcher.expectStatus([])
  })

/**
 * BOP's 10% interim of 2025 (book closure 12 Sep 2025, credited 14 Sep 2025, as the recorded payout says) is due to
 * a holder of 100 shares, but BOP's face value is not recorded, so its rupees are unknown: the due list offers "Add
 * from your warrant", which records the dividend with the warrant's figures and the payout's book closure. The
 * warrant: Rs 1 a share (10% of Rs 10) × 100 = Rs 100 gross, 15% withheld = Rs 15.
 */
export const warrantFromDueList = (base: string) =>
  inBrowser(base, async ({ page, watcher }) => {
    const { token } = (await (await fetch(`${base}/v1/me/session`, { method: "POST" })).json()) as { token: string }
    watcher.setToken(token)
    const bought = await closeOnOrBefore(base, "BOP", "2025-09-01")
    const buy = await fetch(`${base}/v1/me/transactions`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ kind: "buy", symbol: "BOP", trade_date: bought.date, quantity: 100, price: bought.close })
    })
    assert.strictEqual(buy.status, 201, await buy.text())
    await holdToken(page, base, token)
    await page.goto(`${base}/portfolio`)
    await page.locator("#inbox-table").waitFor()
    const row = page.locator("#inbox-table tbody tr", { hasText: "10%(i) (D)" })
    assert.include((await row.textContent()) ?? "", "BOP's face value is not recorded")
    assert.strictEqual(await row.getByRole("button", { name: "Record it" }).count(), 0, "nothing to record blind")
    await row.getByRole("button", { name: /^Add from your warrant: BOP 10%\(i\) \(D\)/ }).click()
    const dialog = page.locator("#tx-dialog[open]")
    await dialog.waitFor()
    assert.deepStrictEqual(
      await Promise.all(
        ["#tx-kind", "#tx-symbol", "#tx-trade_date", "#tx-book_closure_from"].map((id) => page.locator(id).inputValue())
      ),
      ["dividend", "BOP", "14 Sep 2025", "12 Sep 2025"]
    )
    await dialog.getByLabel("Gross amount (rupees)").fill("100")
    await dialog.getByLabel("Tax withheld (rupees, optional)").fill("15")
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith("/v1/me/transactions") && r.request().method() === "POST"),
      dialog.getByRole("button", { name: "Record", exact: true }).click()
    ])
    assert.strictEqual(response.status(), 201)
    await dialog.getByRole("button", { name: "Close", exact: true }).click()
    await page.locator("#inbox-empty").waitFor()
    const ledger = (await (await page.context().request.get(`${base}/v1/me/ledger?limit=10`)).json()) as {
      items: Array<{ type: string; effective_date: string; payload: Record<string, unknown> }>
    }
    const dividend = ledger.items.find((e) => e.type === "DividendRecorded")
    assert.deepStrictEqual(
      [dividend?.effective_date, dividend?.payload["symbol"], dividend?.payload["book_closure_from"]],
      ["2025-09-14", "BOP", "2025-09-12"]
    )
    assert.deepStrictEqual([dividend?.payload["gross_amount"], dividend?.payload["tax_withheld"]], [100, 15])
    const entitlements = (await (await page.context().request.get(`${base}/v1/me/entitlements`)).json()) as {
      items: Array<{ symbol: string; book_closure_from: string; state: string }>
    }
    assert.strictEqual(
      entitlements.items.find((e) => e.symbol === "BOP" && e.book_closure_from === "2025-09-12")?.state,
      "recorded"
    )
    await doneLoading(page)
  })
