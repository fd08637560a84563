/**
 * The website's journeys that need no prepared portfolio: a new user's
 * session, keys, trades through the dialog, verify and revoke; the signed
 * checkpoint (SYNTHETIC key); the market desk. Each runs in its own browser
 * (Watch.ts fails it on any console error, CSP refusal or foreign request).
 */
import { assert } from "@effect/vitest"
import { generateKeyPairSync, sign } from "node:crypto"
import type { Page } from "playwright-core"
import { acknowledgeSaved, createKey, createSession, record, recordTrades, tradesFor } from "./Scenario.ts"
import { inBrowser } from "./Watch.ts"

const holdingRow = (page: Page, symbol: string) =>
  page.locator("#holdings-table tbody tr:not(.detail)").filter({ hasText: symbol })

const apiStatus = async (base: string, path: string, key: string, body?: unknown) => {
  const r = await fetch(`${base}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  await r.arrayBuffer()
  return r.status
}

export const journey = (base: string) =>
  inBrowser(base, async ({ page, watcher }) => {
    // Start: a session, shown once with the "save this token" step; the header then offers "Sign out".
    const token = await createSession(page, base)
    watcher.setToken(token)
    assert.match(token, /^psx_s_/)
    assert.isTrue(await page.getByRole("heading", { name: "Save this token now" }).isVisible())
    await acknowledgeSaved(page)
    assert.isTrue(await page.getByRole("link", { name: "record a transaction" }).isVisible())
    assert.isTrue(await page.getByRole("button", { name: "Sign out", exact: true }).isVisible())
    // The token is kept nowhere a script can read: the sign-in is an HttpOnly cookie.
    const stored = await page.evaluate(() => ({
      session: sessionStorage.length,
      local: localStorage.length,
      cookie: document.cookie
    }))
    assert.deepStrictEqual(stored, { session: 0, local: 0, cookie: "" })
    await staysSignedIn(page, base)

    // Keys: a read-only and a read-write key, each shown once.
    await page.getByRole("link", { name: "API keys" }).first().click()
    const reader = await createKey(page, "reader", ["portfolio:read"])
    const writer = await createKey(page, "writer", ["portfolio:read", "portfolio:write"])
    assert.match(reader, /^psx_/)
    assert.notStrictEqual(reader, writer)
    const readerRow = page.locator("#keys-table tbody tr").filter({ hasText: "reader" })
    await readerRow.locator("code.grant").first().waitFor()
    assert.strictEqual((await readerRow.locator("code.grant").allTextContents()).join(","), "portfolio:read")

    // The signed-in home is the portfolio; a buy and a sell at recorded closes, through the dialog.
    await page.goto(`${base}/`)
    await page.waitForURL(`${base}/portfolio`)
    const trades = await tradesFor(base, "HBL")
    const { bought, sold } = await recordTrades(page, base, trades)
    assert.strictEqual(bought.status, 201, bought.text)
    assert.strictEqual(sold.status, 201, sold.text)
    // 100 bought, 40 sold: 60.
    await page.waitForFunction(() => document.querySelector("#holdings-table tbody tr td")?.textContent === "60")
    assert.strictEqual(await page.locator("#history-table tbody tr").count(), 2)
    // A rejection says what is wrong in words and changes nothing.
    watcher.expectStatus([400])
    const oversold = await record(page, {
      kind: "sell",
      symbol: "HBL",
      date: trades.sell.date,
      quantity: 1000,
      price: trades.sell.price
    })
    watcher.expectStatus([])
    assert.strictEqual(oversold.status, 400)
    // 100 bought − 40 sold = 60 held on the day of the sale, said in words rather than as the API's code.
    const [y, m, d] = trades.sell.date.split("-").map(Number) as [number, number, number]
    const day = `${d} ${
      ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][m - 1]
    } ${y}`
    assert.strictEqual(
      await page.locator("#tx-error").textContent(),
      `Not recorded. You hold 60 HBL on ${day}: a sale can be at most that.`
    )
    assert.strictEqual(await holdingRow(page, "HBL").locator("td").first().textContent(), "60")

    // Grants hold for the keys minted on the page.
    assert.strictEqual(await apiStatus(base, "/v1/me/holdings", reader), 200)
    const buy = { kind: "buy", symbol: "HBL", quantity: 1, price: trades.buy.price, trade_date: trades.buy.date }
    assert.strictEqual(await apiStatus(base, "/v1/me/transactions", reader, buy), 403)

    // Ledger: the events with hashes, and verify.
    await page.getByRole("link", { name: "Ledger" }).click()
    await page.locator("#events-table tbody tr").nth(1).waitFor()
    const rows = await page.locator("#events-table tbody tr").evaluateAll((trs) =>
      trs.map((tr) => ({
        version: Number(tr.querySelector("th")?.textContent),
        hashes: Array.from(tr.querySelectorAll("code.hash"), (c) => c.textContent ?? "")
      })).sort((a, b) => a.version - b.version)
    )
    assert.deepStrictEqual(rows.map((r) => r.version), [1, 2])
    for (const h of rows.flatMap((r) => r.hashes)) assert.match(h, /^[0-9a-f]{64}$/)
    assert.strictEqual(rows[0]!.hashes[0], "0".repeat(64), "the first event starts the chain")
    assert.strictEqual(rows[1]!.hashes[0], rows[0]!.hashes[1], "each event links to the one before")
    await page.getByRole("button", { name: "Verify the ledger" }).click()
    await page.getByText("Verified: 2 events, chain intact, replay matches.").waitFor()

    // Revoke the read-only key: its next call is 401 (a call of the test's, not the page's).
    await page.getByRole("link", { name: "API keys" }).first().click()
    await page.getByRole("button", { name: "Revoke reader" }).click()
    await page.getByText("Revoked reader.").waitFor()
    assert.strictEqual(await apiStatus(base, "/v1/me/holdings", reader), 401)
    assert.strictEqual(await apiStatus(base, "/v1/me/holdings", writer), 200)

    // The header's search: a company name suggests its ticker; choosing it opens the symbol page.
    await page.getByLabel("Find a company or ticker").fill("habib bank")
    await page.locator("#site-search-list option[value=HBL]").waitFor({ state: "attached" })
    await page.getByLabel("Find a company or ticker").fill("HBL")
    await page.getByRole("search", { name: "Site search" }).getByRole("button", { name: "Search" }).click()
    await page.waitForURL(`${base}/market/HBL`)
    await page.locator("#chart canvas").waitFor()
    assert.match((await page.locator("#chart").getAttribute("aria-label")) ?? "", /Daily closing prices of HBL/)

    await crossSiteRefused(page, base)

    // Signing out ends this browser's session and returns to the sign-in page.
    await page.getByRole("button", { name: "Sign out", exact: true }).click()
    await page.waitForURL(`${base}/start`)
    assert.deepStrictEqual(await (await page.context().request.get(`${base}/web/session`)).json(), { signed_in: false })
    await page.goto(`${base}/portfolio`)
    await page.getByText("You are not signed in.").waitFor()
  })

/** A new tab of the same browser, and a reload there, are still signed in (the cookie, not the tab, holds it). */
const staysSignedIn = async (page: Page, base: string) => {
  const tab = await page.context().newPage()
  for (let i = 0; i < 2; i++) {
    if (i === 0) await tab.goto(`${base}/portfolio`)
    else await tab.reload()
    await tab.getByRole("button", { name: "Sign out", exact: true }).waitFor()
    assert.isTrue(await tab.locator("#needs-session").isHidden(), "no 'not signed in' notice in a new tab")
  }
  await tab.close()
}

/**
 * A write from another site is refused: a page with another origin (about:blank here) posting to the API gets no
 * cookie sent (SameSite=Strict); with the cookie but another Origin, or without the CSRF token, it is 403.
 */
const crossSiteRefused = async (page: Page, base: string) => {
  const keys = async () =>
    ((await (await page.context().request.get(`${base}/v1/me/keys`)).json()) as { total: number }).total
  const before = await keys()
  const other = await page.context().newPage()
  await other.goto("about:blank")
  const status = await other.evaluate(
    (url) =>
      fetch(url, {
        method: "POST",
        credentials: "include",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ grants: ["portfolio:read"] })
      })
        .then((r) => r.status, () => 0),
    `${base}/v1/me/keys`
  )
  await other.close()
  assert.include([0, 401], status, "no cookie crosses sites (or the browser blocks the request outright)")
  const body = { grants: ["portfolio:read"] }
  const forged = await page.context().request.post(`${base}/v1/me/keys`, {
    data: body,
    headers: { origin: "https://attacker.example" }
  })
  assert.strictEqual(forged.status(), 403)
  const noToken = await page.context().request.post(`${base}/v1/me/keys`, { data: body, headers: { origin: base } })
  assert.strictEqual(noToken.status(), 403)
  assert.strictEqual(await keys(), before, "nothing was created")
}

/**
 * SYNTHETIC: a checkpoint signed here with a throwaway Ed25519 key, served to
 * the page in place of the API's answers, to test how the ledger page shows
 * a checkpoint and checks its signature in the browser.
 */
export const checkpointCheck = async (base: string) => {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519")
  const signed = "psx-ledger-checkpoint v1\nstream portfolio-synthetic\nversion 2\nhead " + "ab".repeat(32)
  const signature = sign(null, Buffer.from(signed), privateKey).toString("base64")
  const pem = publicKey.export({ type: "spki", format: "pem" }).toString()
  return inBrowser(base, async ({ page }) => {
    await createSession(page, base)
    const serve = (tampered: boolean) =>
      Promise.all([
        page.route("**/v1/me/ledger/checkpoint", (route) =>
          route.fulfill({
            json: {
              stream_id: "portfolio-synthetic",
              version: 2,
              signed,
              signature: tampered ? signature.replace(/^./, (c) => (c === "A" ? "B" : "A")) : signature,
              key_id: "k-synthetic",
              algorithm: "Ed25519"
            }
          })),
        page.route("**/v1/ledger/signing-key", (route) =>
          route.fulfill({ json: { keys: [{ key_id: "k-synthetic", algorithm: "Ed25519", public_key_pem: pem }] } }))
      ])
    await serve(false)
    await page.goto(`${base}/ledger`)
    await page.getByText(signed.split("\n")[1]!).waitFor()
    assert.isTrue(await page.getByText("BEGIN PUBLIC KEY").isVisible())
    const facts = await page.locator("#checkpoint dl.facts").first().locator("dt").allTextContents()
    assert.deepStrictEqual(facts, ["Stream id", "Version", "Key id", "Algorithm"], "the fields in words")
    await page.getByRole("button", { name: "Check the signature in this browser" }).click()
    await page.getByText("The signature is valid for this key.").waitFor()

    await page.unrouteAll()
    await serve(true)
    await page.reload()
    await page.getByRole("button", { name: "Check the signature in this browser" }).click()
    await page.getByText("The signature does NOT match this key.").waitFor()
  })
}

export { marketDesk } from "./MarketDesk.ts"
