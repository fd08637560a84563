/**
 * `npm run screenshots`: a PNG of every page of the website in
 * docs/screenshots/, taken in headless Chromium (scripts/install-chromium.sh)
 * against a fresh service on a loopback port with its own temporary store,
 * signed in to a multi-stock portfolio made through the API
 * (test/e2e/Portfolio.ts: eight symbols, a sale, dividends, a bonus, a
 * donation); each page at 1440×900, 1280×800 and 390×844, in the light and the dark theme
 * (`<name>-<width>-<light|dark>.png`).
 * With BASE_URL set, that running service is used instead; SCREENSHOT_WIDTHS=390 (a list) takes only those widths.
 */
import { spawn } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import type { Page } from "playwright-core"
import { CHROMIUM, hasChromium, launch } from "../test/e2e/Browser.ts"
import { makePortfolio } from "../test/e2e/Portfolio.ts"
import { holdToken } from "../test/e2e/Watch.ts"

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
    const body = await fetch(`${base}/ready`, { signal: AbortSignal.timeout(5_000) }).then(
      (r) => r.json() as Promise<{ data_pack?: string }>,
      () => undefined
    )
    // The board answers once the read model has loaded the imported session, a little after the import ends.
    const board = body?.data_pack === "installed"
      ? await fetch(`${base}/v1/market/board`).then((r) => r.status, () => 0)
      : 0
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

/** What each screenshot shows: the page is opened, then `ready` waits for its content (and may act on it). */
const PAGES: ReadonlyArray<
  {
    readonly name: string
    readonly path: string
    readonly signedOut?: boolean
    readonly before?: (page: Page) => Promise<unknown>
    readonly ready: (page: Page) => Promise<unknown>
  }
> = [
  {
    name: "01-home",
    path: "/",
    signedOut: true,
    ready: (p) =>
      Promise.all([
        p.getByRole("link", { name: "Start a portfolio" }).waitFor(),
        p.locator("#index-chart canvas").waitFor()
      ])
  },
  {
    name: "02-portfolio",
    path: "/portfolio",
    ready: (p) =>
      Promise.all([
        p.locator("#value-chart canvas").waitFor(),
        // On a phone the month table is folded away beside its chart.
        p.locator("#income-table").waitFor({ state: "attached" }),
        p.locator("#sector-chart canvas").waitFor()
      ])
  },
  {
    name: "03-portfolio-holding-open",
    path: "/portfolio#h-holdings",
    ready: async (p) => {
      await p.locator("#holdings-table").waitFor()
      // On a phone the list starts folded after its first holdings.
      const all = p.getByRole("button", { name: /^Show all \d+ holdings$/ })
      if (await all.isVisible()) await all.click()
      await p.getByRole("button", { name: "More about OGDC" }).click()
    }
  },
  {
    name: "04-add-transaction",
    path: "/portfolio?add=MEBL",
    ready: async (p) => {
      await p.locator("#tx-dialog[open]").waitFor()
      await p.locator("#tx-dialog").getByLabel("Trade date").fill("2026-05-25")
      await p.waitForFunction(() => (document.getElementById("tx-price") as HTMLInputElement).value !== "")
    }
  },
  {
    name: "05-import-preview",
    path: "/portfolio#h-import",
    ready: async (p) => {
      await p.locator("#import-file").setInputFiles({
        name: "statement.csv",
        mimeType: "text/csv",
        buffer: Buffer.from(SAMPLE_CSV)
      })
      await p.getByRole("button", { name: "Check the file" }).click()
      await p.locator("#import-mapping-table").waitFor()
      await p.locator("#import-summary").waitFor()
      await p.locator("#h-import").scrollIntoViewIfNeeded()
    }
  },
  {
    name: "06-ledger",
    path: "/ledger",
    ready: async (p) => {
      await p.getByRole("button", { name: "Verify the ledger" }).click()
      await p.locator("#verify-result .result").waitFor()
    }
  },
  { name: "07-keys", path: "/keys", ready: (p) => p.locator("#keys-table tbody tr").first().waitFor() },
  {
    name: "08-market",
    path: "/market",
    ready: (p) =>
      Promise.all([
        p.locator("#index-chart canvas").waitFor(),
        p.locator("#tone-chart canvas").waitFor(),
        p.locator("#calendar-grid").waitFor()
      ])
  },
  {
    name: "09-symbol",
    path: "/market/MEBL",
    ready: (p) =>
      Promise.all([
        p.locator("#chart canvas").waitFor(),
        p.locator("#position-events").waitFor(),
        p.locator("#dividends table").waitFor()
      ])
  },
  { name: "10-symbol-unknown", path: "/market/ZZZZ", ready: (p) => p.locator("#symbol-unknown").waitFor() },
  { name: "11-screener", path: "/screener?dividend_yield_min=8", ready: (p) => p.locator("#screen-table").waitFor() },
  {
    name: "12-compare",
    path: "/compare?symbols=HBL,MEBL",
    ready: (p) => Promise.all([p.locator("#compare-table").waitFor(), p.locator("#compare-chart canvas").waitFor()])
  },
  {
    name: "13-compare-three",
    path: "/compare?symbols=HBL,MEBL,UBL",
    ready: (p) => Promise.all([p.locator("#compare-table").waitFor(), p.locator("#compare-chart canvas").waitFor()])
  },
  {
    name: "14-donate",
    path: "/donate",
    ready: (p) => p.getByRole("button", { name: "Record the pending donation" }).waitFor()
  },
  {
    name: "15-not-found",
    path: "/no-such-page",
    ready: (p) => p.getByRole("heading", { name: "Page not found" }).waitFor()
  },
  {
    name: "16-api-reference",
    path: "/docs",
    ready: (p) =>
      Promise.all([
        p.getByRole("link", { name: "← PSX data service" }).waitFor(),
        // Scalar renders an operation's section lazily; its entry in the sidebar shows the spec was read.
        p.getByText("Readiness probe").first().waitFor({ state: "attached" })
      ])
  },
  {
    name: "18-sign-in",
    path: "/start",
    ready: (p) => p.getByRole("button", { name: "Sign out of every device" }).waitFor()
  },
  {
    name: "19-portfolio-error",
    path: "/portfolio",
    // The portfolio's read failing (a 503 in place of the answer): one box says so, the history still shows.
    before: (p) =>
      p.route(/\/v1\/me\/portfolio\?/, (route) =>
        route.fulfill({
          status: 503,
          contentType: "application/json",
          body: JSON.stringify({ error: "SOURCE_UNAVAILABLE", message: "the store did not answer" })
        })),
    ready: (p) =>
      Promise.all([p.locator(".error-box").waitFor(), p.locator("#history-table tbody tr").first().waitFor()])
  },
  {
    name: "20-sale-refused",
    path: "/portfolio?add=HBL",
    ready: async (p) => {
      const dialog = p.locator("#tx-dialog[open]")
      await dialog.waitFor()
      await dialog.getByLabel("Kind").selectOption("sell")
      await dialog.getByLabel("Trade date").fill("25 May 2026")
      await dialog.getByLabel("Quantity (shares)").fill("1000")
      await dialog.getByLabel("Price (rupees per share)").fill("288.42")
      await dialog.getByRole("button", { name: "Record", exact: true }).click()
      await p.locator("#tx-error:not(:empty)").waitFor()
    }
  },
  {
    name: "17-tax-statement",
    path: "/portfolio/tax",
    ready: (p) => Promise.all([p.locator("#tax-needs").waitFor(), p.locator("#tax-sales").waitFor()])
  }
]

/**
 * A broker's statement for the import preview, as brokers write it (day-first dates, "1,000", BUY in capitals,
 * Rate and Commission): two good rows and one the ledger refuses (a sale of shares not held).
 */
const SAMPLE_CSV =
  "Date,Type,Symbol,Qty,Rate,Commission\r\n22/05/2026,BUY,PSO,\"1,000\",352.10,26.41\r\n25/05/2026,BUY,ENGRO,20,300,0\r\n25/05/2026,SELL,FFC,10,541.73,0\r\n"

/** Every page at one size and theme, in a browser signed in with `token` (signed out where the page says so). */
const shoot = async (
  base: string,
  token: string,
  size: { readonly width: number; readonly height: number },
  theme: "light" | "dark"
) => {
  const browser = await launch(size)
  const { page } = browser
  // Scalar's API reference parses megabytes of script; on a busy machine that takes more than the default 30 s.
  page.setDefaultTimeout(120_000)
  page.setDefaultNavigationTimeout(120_000)
  await page.emulateMedia({ colorScheme: theme })
  try {
    for (const { name, path, signedOut, before, ready } of PAGES) {
      await browser.context.clearCookies()
      await page.unrouteAll()
      if (signedOut !== true) await holdToken(page, base, token)
      await before?.(page)
      await page.goto(`${base}${path}`)
      await ready(page)
      await page.waitForLoadState("networkidle")
      await page.waitForFunction(
        () =>
          Array.from(document.querySelectorAll(".skeleton, [aria-busy=true]")).every((e) =>
            (e as HTMLElement).offsetParent === null
          ),
        undefined,
        { timeout: 60_000 }
      ).catch(() => undefined)
      const file = `${name}-${size.width}-${theme}.png`
      await page.screenshot({ path: join(out, file), fullPage: true })
      console.log(`wrote docs/screenshots/${file}`)
    }
  } finally {
    await browser.close()
  }
}

const main = async () => {
  if (!hasChromium()) throw new Error(`no Chromium at ${CHROMIUM}: run bash scripts/install-chromium.sh`)
  // SCREENSHOT_WIDTHS=390 takes that width again and keeps the others' files.
  const widths = process.env["SCREENSHOT_WIDTHS"]?.split(",").map(Number)
  if (widths === undefined) rmSync(out, { recursive: true, force: true })
  mkdirSync(out, { recursive: true })
  const service = await startService()
  try {
    const { token } = await makePortfolio(service.base)
    const sizes = [{ width: 1440, height: 900 }, { width: 1280, height: 800 }, { width: 390, height: 844 }]
    for (const size of sizes.filter((s) => widths === undefined || widths.includes(s.width))) {
      for (const theme of ["light", "dark"] as const) await shoot(service.base, token, size, theme)
    }
  } finally {
    service.stop()
  }
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
