/**
 * `npm run screenshots`: a PNG of each page of the website in
 * docs/screenshots/, taken in headless Chromium (scripts/install-chromium.sh)
 * against a fresh service on a loopback port with its own temporary store,
 * after the steps a new user takes: a session, two keys, a buy and a sell,
 * a dividend, a bonus, a verify, a search, a screen, a comparison and a
 * pending donation; each page at desktop width and at 360 px (`-narrow`).
 * With BASE_URL set, that running service is used instead.
 */
import { spawn } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { CHROMIUM, hasChromium, launch } from "../test/e2e/Browser.ts"
import type { Page } from "playwright-core"
import { acknowledgeSaved, createKey, createSession, recordOther, recordTrades, tradesFor } from "../test/e2e/Scenario.ts"

const root = fileURLToPath(new URL("..", import.meta.url))
const out = join(root, "docs", "screenshots")

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0))
    })
  })

const waitReady = async (base: string, deadline: number) => {
  while (Date.now() < deadline) {
    const body = await fetch(`${base}/ready`, { signal: AbortSignal.timeout(5_000) }).then((r) => r.json() as Promise<{ data_pack?: string }>, () => undefined)
    // The board answers once the read model has loaded the imported session, a little after the import ends.
    const board = body?.data_pack === "installed" ? await fetch(`${base}/v1/market/board`).then((r) => r.status, () => 0) : 0
    if (board === 200) return
    await new Promise((r) => setTimeout(r, 1000))
  }
  throw new Error(`${base} did not become ready with the data pack installed`)
}

/** A service of our own on a free loopback port, or the one BASE_URL names. */
const startService = async () => {
  const given = process.env["BASE_URL"]
  if (given) return { base: given.replace(/\/$/, ""), stop: () => {} }
  const port = await freePort()
  const dataDir = mkdtempSync(join(tmpdir(), "psx-screenshots-"))
  const child = spawn(process.execPath, ["src/main.ts", "serve"], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", PSX_DATA_DIR: join(dataDir, "pg"), DATABASE_URL: "" },
    stdio: ["ignore", "ignore", "inherit"]
  })
  const base = `http://127.0.0.1:${port}`
  await waitReady(base, Date.now() + 300_000)
  return {
    base,
    stop: () => {
      child.kill("SIGTERM")
      rmSync(dataDir, { recursive: true, force: true })
    }
  }
}

/** What each screenshot shows: the page is opened, then `ready` waits for its content. */
const PAGES: ReadonlyArray<{ readonly name: string; readonly path: string; readonly ready: (page: Page) => Promise<unknown> }> = [
  { name: "3-portfolio", path: "/portfolio", ready: (p) => Promise.all([p.locator("#value-chart canvas").waitFor(), p.locator("#income-table").waitFor(), p.locator("#sector-chart canvas").waitFor()]) },
  { name: "4-ledger", path: "/ledger", ready: async (p) => {
    await p.getByRole("button", { name: "Verify the ledger" }).click()
    await p.locator("#verify-result .result").waitFor()
  } },
  { name: "5-market", path: "/market?q=bank", ready: (p) => Promise.all([p.locator("#tone-chart canvas").waitFor(), p.locator("#search-results ul").waitFor(), p.locator("#calendar-coverage").waitFor()]) },
  { name: "6-symbol", path: "/market/MEBL", ready: (p) => Promise.all([p.locator("#chart canvas").waitFor(), p.locator("#caveats").waitFor(), p.locator("#dividends table").waitFor()]) },
  { name: "7-screener", path: "/screener?dividend_yield_min=8&limit=25", ready: (p) => p.locator("#screen-table").waitFor() },
  { name: "8-compare", path: "/compare?symbols=HBL,MEBL", ready: (p) => p.locator("#compare-table").waitFor() },
  { name: "9-donate", path: "/donate", ready: async (p) => {
    await p.getByLabel("Amount (rupees)").fill("1500")
    await p.getByRole("button", { name: "Record the pending donation" }).click()
    await p.locator("#donate-result .result").waitFor()
  } }
]

const main = async () => {
  if (!hasChromium()) throw new Error(`no Chromium at ${CHROMIUM}: run bash scripts/install-chromium.sh`)
  mkdirSync(out, { recursive: true })
  const service = await startService()
  const browser = await launch({ width: 1280, height: 900 })
  const { page } = browser
  const shot = async (name: string) => {
    await page.waitForLoadState("networkidle")
    await page.screenshot({ path: join(out, `${name}.png`), fullPage: true })
    console.log(`wrote docs/screenshots/${name}.png`)
  }
  try {
    const { base } = service
    await createSession(page, base)
    await shot("1-start")
    await acknowledgeSaved(page)

    await page.goto(`${base}/keys`)
    await createKey(page, "research agent (read only)", ["portfolio:read"])
    await createKey(page, "bookkeeping agent", ["portfolio:read", "portfolio:write"])
    await shot("2-keys")

    // Bought three trading days before a book closure starting on the sell date: entitled.
    const hbl = await tradesFor(base, "HBL", 3)
    await recordTrades(page, base, hbl)
    const mebl = await tradesFor(base, "MEBL", 3)
    await recordTrades(page, base, mebl)
    await recordOther(page, { kind: "dividend", symbol: "HBL", date: hbl.sell.date, bookClosure: hbl.sell.date, gross: 480, tax: 72 })
    await recordOther(page, { kind: "bonus", symbol: "MEBL", date: mebl.sell.date, bookClosure: mebl.sell.date, percent: 10 })
    const token = await page.evaluate(() => sessionStorage.getItem("psx.token"))
    for (const { name, path, ready } of PAGES) {
      await page.goto(`${base}${path}`)
      await ready(page)
      await shot(name)
    }
    // The same pages at 360 px wide, in a browser holding the same session.
    const narrow = await launch({ width: 360, height: 800 })
    try {
      await narrow.page.goto(`${base}/`)
      await narrow.page.evaluate((t) => sessionStorage.setItem("psx.token", t ?? ""), token)
      for (const { name, path, ready } of PAGES) {
        if (name === "9-donate") continue
        await narrow.page.goto(`${base}${path}`)
        await ready(narrow.page)
        await narrow.page.waitForLoadState("networkidle")
        await narrow.page.screenshot({ path: join(out, `${name}-narrow.png`), fullPage: true })
        console.log(`wrote docs/screenshots/${name}-narrow.png`)
      }
    } finally {
      await narrow.close()
    }
  } finally {
    await browser.close()
    service.stop()
  }
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
