/**
 * The website end to end in headless Chromium (Debian's package, driven by
 * playwright-core) against the whole service on a loopback port, its clock
 * and the browser's at NOW: the security headers and what a browser gets
 * for a path that does not exist; a session, keys, a buy and a sell through
 * the "Add transaction" dialog, verify, revoke; the signed checkpoint; the
 * market desk; and the portfolio as a tracker over a multi-stock portfolio
 * made through the API (test/e2e/Portfolio.ts), with figures worked by hand;
 * the performance chart from the server's daily valuation and the tax-year
 * statement (test/e2e/Performance.ts, TaxStatement.ts); the phone layout, one error box for one failure
 * and a due payout recorded from its warrant (test/e2e/Dashboard.ts).
 * Without /usr/bin/chromium the tests skip with one line, except in CI
 * (CI=true), where a missing browser fails.
 */
import { assert, describe, it as plain, layer } from "@effect/vitest"
import { Effect } from "effect"
import { TestApp } from "../support/TestApp.ts"
import { CHROMIUM } from "./Browser.ts"
import { oneErrorBox, phoneDashboard, warrantFromDueList } from "./Dashboard.ts"
import { checkpointCheck, journey, marketDesk } from "./Journeys.ts"
import { carriedClose, performanceChart } from "./Performance.ts"
import { makePortfolio } from "./Portfolio.ts"
import { donateFromPortfolio, taxStatement } from "./TaxStatement.ts"
import { tracker } from "./Tracker.ts"
import { baseUrl, doneLoading, holdToken, inBrowser, mode, NOW } from "./Watch.ts"

const PAGES = [
  "/",
  "/start",
  "/keys",
  "/portfolio",
  "/ledger",
  "/market",
  "/market/HBL",
  "/screener",
  "/compare",
  "/donate"
]

const headers = async (base: string) => {
  for (
    const path of [
      ...PAGES,
      "/assets/site.css",
      "/assets/api.js",
      "/assets/vendor/uplot.js",
      "/favicon.ico",
      "/assets/favicon.svg"
    ]
  ) {
    const r = await fetch(`${base}${path}`)
    await r.arrayBuffer()
    assert.strictEqual(r.status, 200, path)
    const csp = r.headers.get("content-security-policy") ?? ""
    for (const directive of ["default-src 'none'", "script-src 'self'", "style-src 'self'", "frame-ancestors 'none'"]) {
      assert.include(csp, directive, path)
    }
    assert.strictEqual(r.headers.get("x-content-type-options"), "nosniff", path)
    assert.strictEqual(r.headers.get("referrer-policy"), "no-referrer", path)
  }
  const icon = await fetch(`${base}/favicon.ico`)
  assert.strictEqual(icon.headers.get("content-type"), "image/x-icon")
  assert.deepStrictEqual(
    [...new Uint8Array(await icon.arrayBuffer()).slice(0, 4)],
    [0, 0, 1, 0],
    "an ICO file's header"
  )
  const page = await (await fetch(`${base}/portfolio`)).text()
  assert.notMatch(page, /<script(?![^>]*\bsrc=)/, "no inline script")
  assert.notMatch(page, /<style|\sstyle=/, "no inline style")
  assert.include(page, `href="/docs"`)
  assert.include(page, `id="site-search"`, "the header's search is on every page")
  assert.include(page, `class="skeleton skeleton-table"`, "a section shows its shape while it loads, never a blank box")
  const bad = await fetch(`${base}/market/%3Cb%3E`)
  assert.strictEqual(bad.status, 400)
  assert.notInclude(await bad.text(), "<b>")

  // A path that does not exist: a browser gets a page, an API client the JSON record, as before.
  const html = await fetch(`${base}/no/such/page`, { headers: { accept: "text/html,application/xhtml+xml,*/*;q=0.8" } })
  assert.strictEqual(html.status, 404)
  assert.match(html.headers.get("content-type") ?? "", /^text\/html/)
  assert.include(html.headers.get("content-security-policy") ?? "", "default-src 'none'")
  assert.include(await html.text(), "Page not found")
  const json = await fetch(`${base}/no/such/page`)
  assert.strictEqual(json.status, 404)
  assert.deepStrictEqual(await json.json(), { error: "DATA_NOT_FOUND", message: "no route GET /no/such/page" })
  const post = await fetch(`${base}/no/such/page`, { method: "POST", headers: { accept: "text/html" } })
  assert.strictEqual(post.status, 404)
  assert.strictEqual((await post.json()).error, "DATA_NOT_FOUND")

  // The API reference: no web fonts (the policy allows this origin only), and a way back to the site.
  const docs = await fetch(`${base}/docs`)
  const text = await docs.text()
  assert.include(text, `<a href="/">← PSX data service</a>`)
  assert.include(text, `"withDefaultFonts":false`)
  assert.include(docs.headers.get("content-security-policy") ?? "", "font-src 'self' data:")
}

/** The chart and the statement over one portfolio: the chart at 1440 px, the statement at 1440 and 390 px. */
const statements = async (base: string) => {
  const made = await makePortfolio(base)
  await donateFromPortfolio(base, made.token)
  for (const size of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
    await inBrowser(base, async ({ page, watcher }) => {
      watcher.setToken(made.token)
      await holdToken(page, base, made.token)
      await page.goto(`${base}/portfolio`)
      await doneLoading(page)
      if (size.width > 600) await performanceChart(page, base, made)
      await taxStatement(page, base, made)
      if (size.width > 600) watcher.setToken(await carriedClose(page, base, (t) => holdToken(page, base, t)))
    }, size)
  }
}

if (mode === "fail") {
  describe("website in a real browser", () => {
    plain("needs Chromium in CI", () => {
      assert.fail(`CI=true but there is no Chromium at ${CHROMIUM}: run bash scripts/install-chromium.sh`)
    })
  })
}

describe.skipIf(mode !== "run")("website in a real browser", () => {
  layer(TestApp({ withPack: true, now: NOW }), { timeout: 600_000, excludeTestServices: true })(
    "on a loopback server",
    (it) => {
      it.effect("pages answer with a strict CSP, nosniff and no-referrer; a browser's 404 is a page; favicon; the API reference", () =>
        Effect.flatMap(baseUrl, (base) => Effect.promise(() => headers(base))))

      it.effect(
        "session, keys, a buy and a sell in the dialog, verify, revoke, the header's search",
        () => Effect.flatMap(baseUrl, (base) => Effect.promise(() => journey(base))),
        180_000
      )

      it.effect(
        "the ledger page shows a signed checkpoint and checks it with the public key (SYNTHETIC key)",
        () => Effect.flatMap(baseUrl, (base) => Effect.promise(() => checkpointCheck(base))),
        120_000
      )

      it.effect(
        "market desk: KSE-100 history, coloured movers, calendar grid, screener sorting, compare, a pending donation",
        () => Effect.flatMap(baseUrl, (base) => Effect.promise(() => marketDesk(base))),
        300_000
      )

      it.effect(
        "portfolio tracker: holdings, income by event, month and year, entitlements, history, trade entry, CSV, symbol panel",
        () => Effect.flatMap(baseUrl, (base) => Effect.promise(() => tracker(base))),
        300_000
      )

      it.effect(
        "the phone dashboard: bounded height, cards two to a row, short charts, long lists folded behind Show all",
        () =>
          Effect.flatMap(
            baseUrl,
            (base) => Effect.promise(async () => phoneDashboard(base, await makePortfolio(base)))
          ),
        300_000
      )

      it.effect(
        "a failed read shows one error box and the history still renders; a due payout added from the warrant",
        () =>
          Effect.flatMap(baseUrl, (base) =>
            Effect.promise(async () => {
              await oneErrorBox(base, await makePortfolio(base))
              await warrantFromDueList(base)
            })),
        300_000
      )

      it.effect(
        "the performance chart reaches the last session with the server's returns; the tax-year statement at both sizes",
        () => Effect.flatMap(baseUrl, (base) => Effect.promise(() => statements(base))),
        300_000
      )
    }
  )
})
