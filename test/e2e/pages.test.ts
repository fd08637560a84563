/**
 * Every page of the website at 1440×900, 1280×800 and 390×844, in the light
 * and the dark theme, signed in to a multi-stock portfolio made through the
 * API (test/e2e/Portfolio.ts): no console or script error, no CSP refusal,
 * axe-core finds no violation of any impact, nothing reaches past the right
 * edge (nor a table past its box), no text reads "[object", a raw ISO
 * instant or an internal name (a route, a field's or dataset's id), the header takes at most two lines, no chart legend reads "--",
 * no loading skeleton is left; and the keyboard reaches the skip link and
 * the header's search.
 */
import { assert, describe, it as plain, layer } from "@effect/vitest"
import { Effect } from "effect"
import type { Page } from "playwright-core"
import { TestApp } from "../support/TestApp.ts"
import { CHROMIUM } from "./Browser.ts"
import { makePortfolio } from "./Portfolio.ts"
import {
  axeViolations,
  baseUrl,
  doneLoading,
  holdToken,
  inBrowser,
  mode,
  NOW,
  overflow,
  type Watcher
} from "./Watch.ts"

/** How long Scalar's API reference may take to show. */
const SCALAR_MS = 120_000

/** The pages, each with what shows it has loaded. */
const PAGES: ReadonlyArray<
  { readonly path: string; readonly ready: (p: Page) => Promise<unknown>; readonly axe?: boolean }
> = [
  {
    path: "/portfolio",
    ready: (p) =>
      Promise.all([
        p.locator("#value-chart canvas").waitFor(),
        // On a phone the month table is folded away beside its chart.
        p.locator("#income-table").waitFor({ state: "attached" }),
        p.locator("#holdings-table").waitFor()
      ])
  },
  {
    path: "/portfolio/tax",
    ready: (p) => Promise.all([p.locator("#tax-needs").waitFor(), p.locator("#tax-sales").waitFor()])
  },
  { path: "/ledger", ready: (p) => p.locator("#events-table tbody tr").first().waitFor() },
  { path: "/keys", ready: (p) => p.locator("#keys-table tbody tr").first().waitFor() },
  {
    path: "/market",
    ready: (p) =>
      Promise.all([
        p.locator("#index-chart canvas").waitFor(),
        p.locator("#tone-chart canvas").waitFor(),
        p.locator("#calendar-grid").waitFor()
      ])
  },
  {
    path: "/market/MEBL",
    ready: (p) =>
      Promise.all([
        p.locator("#chart canvas").waitFor(),
        p.locator("#position-events").waitFor(),
        p.locator("#caveats").waitFor()
      ])
  },
  { path: "/market/ZZZZ", ready: (p) => p.locator("#symbol-unknown").waitFor() },
  { path: "/screener?dividend_yield_min=8", ready: (p) => p.locator("#screen-table").waitFor() },
  {
    path: "/compare?symbols=HBL,MEBL",
    ready: (p) => Promise.all([p.locator("#compare-table").waitFor(), p.locator("#compare-chart canvas").waitFor()])
  },
  {
    path: "/compare?symbols=HBL,MEBL,UBL",
    ready: (p) => Promise.all([p.locator("#compare-table").waitFor(), p.locator("#compare-chart canvas").waitFor()])
  },
  { path: "/donate", ready: (p) => p.getByRole("button", { name: "Record the pending donation" }).waitFor() },
  { path: "/start", ready: (p) => p.getByRole("button", { name: "Sign out of every device" }).waitFor() },
  { path: "/no-such-page", ready: (p) => p.getByRole("heading", { name: "Page not found" }).waitFor() },
  // Scalar's own page: checked for errors and overflow; its markup is Scalar's, so axe is left to its makers.
  {
    path: "/docs",
    ready: (p) =>
      Promise.all([
        p.getByRole("link", { name: "← PSX data service" }).waitFor({ timeout: SCALAR_MS }),
        // Scalar renders an operation's section lazily; its entry in the sidebar shows the spec was read.
        p.getByText("Readiness probe").first().waitFor({ state: "attached", timeout: SCALAR_MS })
      ]),
    axe: false
  }
]

/** One page at one size: everything the file's header promises. */
const check = async (page: Page, watcher: Watcher, base: string, spec: (typeof PAGES)[number], narrow: boolean) => {
  const found: Array<string> = []
  const missing = spec.path === "/no-such-page" || spec.path === "/market/ZZZZ"
  watcher.expectStatus(missing ? [404] : [])
  // Scalar's page parses a script of megabytes before its content shows (tens of seconds on a busy machine); its
  // own readiness is what `ready` waits for.
  const response = await page.goto(
    `${base}${spec.path}`,
    spec.path === "/docs" ? { waitUntil: "domcontentloaded", timeout: SCALAR_MS } : {}
  )
  await spec.ready(page)
  if (spec.path !== "/docs") await doneLoading(page)
  if (missing) assert.strictEqual(response?.status(), 404, spec.path)
  const over = await overflow(page)
  if (over > 0) found.push(`reaches ${over} px past the right edge`)
  found.push(...(await textDefects(page)))
  if (spec.path !== "/docs") {
    const header = await page.locator("header.site").evaluate((h) => h.getBoundingClientRect().height)
    if (header > (narrow ? 96 : 64)) found.push(`header is ${header} px tall`)
    const legends = await page.locator(".u-legend").allTextContents()
    if (legends.some((l) => l.includes("--"))) found.push(`a chart legend reads "--": ${legends.join(" / ")}`)
  }
  if (spec.axe !== false) found.push(...(await axeViolations(page)))
  return found.map((f) => `${spec.path} at ${page.viewportSize()?.width} px: ${f}`)
}

/**
 * What no page may show: "[object …]" (an object written as text), a raw ISO instant or date where words belong,
 * and a table wider than the box that holds it (a column cut off at the edge).
 */
const textDefects = (page: Page) =>
  page.evaluate(() => {
    const found: Array<string> = []
    // Signed text and code are shown verbatim (a checkpoint's signed bytes keep their UTC instants).
    const shown = document.body.cloneNode(true) as HTMLElement
    for (const verbatim of Array.from(shown.querySelectorAll("pre, code, script, style, noscript"))) verbatim.remove()
    const text = shown.textContent ?? ""
    const object = /\[object [A-Za-z]+\]/.exec(text)
    if (object) found.push(`shows "${object[0]}"`)
    const instant = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.exec(text)
    if (instant) found.push(`shows a raw instant "${instant[0]}"`)
    // Internal names: an HTTP route, a field or dataset id ("prices_eod"), a rule id ("wht-dividend-2019-07").
    // A repository's path ("…/psx_ohlcv@…") and a credential's prefix ("psx_s_…") are what they are.
    if (!location.pathname.startsWith("/docs")) {
      const internal =
        /\b(?:GET|POST) \/\S+|(?<![\w/.-])(?!psx_)[a-z]{2,}(?:_[a-z]{2,})+\b|\b(?:wht|cgt)-[a-z-]+-\d{4}-\d{2}\b/
          .exec(text)
      if (internal) found.push(`shows an internal name "${internal[0]}"`)
    }
    for (const wrap of Array.from(document.querySelectorAll(".table-wrap"))) {
      const box = wrap as HTMLElement
      // On a phone a table may scroll inside its box (it says so by its scrollbar); from 1280 px every column shows.
      const scrolls = getComputedStyle(box).overflowX !== "visible"
      if (
        box.offsetParent !== null && (!scrolls || window.innerWidth >= 1280) && box.scrollWidth > box.clientWidth + 1
      ) {
        found.push(
          `a table is ${box.scrollWidth} px wide in a ${box.clientWidth} px box (${
            box.getAttribute("aria-label") ?? box.id
          })`
        )
      }
    }
    return found
  })

const everyPage = (
  base: string,
  token: string,
  size: { readonly width: number; readonly height: number },
  theme: "light" | "dark"
) =>
  inBrowser(base, async ({ page, watcher }) => {
    await page.emulateMedia({ colorScheme: theme })
    const found: Array<string> = []
    // Signed out, the home page is the market desk with "start a portfolio"; signed in, it is the portfolio.
    await page.goto(`${base}/`)
    await page.getByRole("link", { name: "Start a portfolio" }).waitFor()
    await page.locator("#index-chart canvas").waitFor()
    await doneLoading(page)
    found.push(...(await axeViolations(page)).map((v) => `/ signed out: ${v}`))
    found.push(...(await textDefects(page)).map((v) => `/ signed out: ${v}`))
    await holdToken(page, base, token)
    watcher.setToken(token)
    await page.goto(`${base}/`)
    await page.waitForURL(`${base}/portfolio`)
    for (const spec of PAGES) found.push(...(await check(page, watcher, base, spec, size.width < 600)))
    assert.deepStrictEqual(found, [], theme)
  }, size)

const keyboard = (base: string) =>
  inBrowser(base, async ({ page }) => {
    for (const path of ["/market", "/portfolio", "/screener"]) {
      await page.goto(`${base}${path}`)
      // The first Tab reaches the skip link, which moves focus to the main content; the ring is visible.
      await page.keyboard.press("Tab")
      assert.strictEqual(await page.evaluate(() => document.activeElement?.textContent), "Skip to content", path)
      assert.notStrictEqual(
        await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle),
        "none",
        path
      )
      await page.keyboard.press("Enter")
      assert.strictEqual(await page.evaluate(() => document.activeElement?.id), "main", path)
    }
    // The header's search from the keyboard: a ticker and Enter open its page.
    await page.goto(`${base}/market`)
    await page.keyboard.press("Tab")
    for (let i = 0; i < 6 && (await page.evaluate(() => document.activeElement?.id)) !== "site-search"; i++) {
      await page.keyboard.press("Tab")
    }
    assert.strictEqual(await page.evaluate(() => document.activeElement?.id), "site-search")
    await page.keyboard.type("MEBL")
    await page.waitForResponse((r) => r.url().includes("/v1/search?q=MEBL"))
    await page.keyboard.press("Enter")
    await page.waitForURL(`${base}/market/MEBL`)
  })

if (mode === "fail") {
  describe("every page in a real browser", () => {
    plain("needs Chromium in CI", () => {
      assert.fail(`CI=true but there is no Chromium at ${CHROMIUM}: run bash scripts/install-chromium.sh`)
    })
  })
}

describe.skipIf(mode !== "run")("every page in a real browser", () => {
  layer(TestApp({ withPack: true, now: NOW }), { timeout: 600_000, excludeTestServices: true })(
    "on a loopback server",
    (it) => {
      it.effect(
        "each page at 1440, 1280 and 390 px, light and dark: no error, axe clean, no overflow, no '[object' or raw instant, two-line header, legends filled",
        () =>
          Effect.flatMap(baseUrl, (base) =>
            Effect.promise(async () => {
              const made = await makePortfolio(base)
              for (
                const size of [{ width: 1440, height: 900 }, { width: 1280, height: 800 }, { width: 390, height: 844 }]
              ) {
                for (const theme of ["light", "dark"] as const) await everyPage(base, made.token, size, theme)
              }
            })),
        1_200_000
      )

      it.effect(
        "the keyboard reaches the skip link and the header's search",
        () => Effect.flatMap(baseUrl, (base) => Effect.promise(() => keyboard(base))),
        120_000
      )
    }
  )
})
