/**
 * `npm run screenshots`: a PNG of each page of the website in
 * docs/screenshots/, taken in headless Chromium (scripts/install-chromium.sh)
 * against a fresh service on a loopback port with its own temporary store,
 * after the steps a new user takes: a session, two keys, a buy and a sell,
 * a verify, a search. With BASE_URL set, that running service is used instead.
 */
import { spawn } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { CHROMIUM, hasChromium, launch } from "../test/e2e/Browser.ts"
import { acknowledgeSaved, createKey, createSession, recordTrades, tradesFor } from "../test/e2e/Scenario.ts"

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
    if (body?.data_pack === "installed") return
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

    await recordTrades(page, base, await tradesFor(base, "HBL"))
    await recordTrades(page, base, await tradesFor(base, "HUBC"))
    await page.goto(`${base}/portfolio`)
    await page.locator("#holdings-table tbody tr").nth(1).waitFor()
    await shot("3-portfolio")

    await page.goto(`${base}/ledger`)
    await page.getByRole("button", { name: "Verify the ledger" }).click()
    await page.locator("#verify-result .result").waitFor()
    await shot("4-ledger")

    await page.goto(`${base}/market?q=bank`)
    await page.locator("#search-results ul").waitFor()
    await page.locator("#board > *").first().waitFor()
    await shot("5-market")

    await page.goto(`${base}/market/HBL`)
    await page.locator("#chart canvas").waitFor()
    await page.locator("#quote dl").waitFor()
    await shot("6-symbol")
  } finally {
    await browser.close()
    service.stop()
  }
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
