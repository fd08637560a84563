/**
 * What a person does on the website, step by step, in a real browser:
 * shared by the end-to-end tests and the screenshot script. Each step uses
 * only what a user sees (labels, buttons) and returns what the page showed.
 */
import type { Page } from "playwright-core"

/** A buy and a sell at recorded closes of a real symbol, on days it traded. */
export interface Trades {
  readonly symbol: string
  readonly buy: { readonly date: string; readonly price: number; readonly quantity: number }
  readonly sell: { readonly date: string; readonly price: number; readonly quantity: number }
}

/**
 * Reads two recorded daily closes of `symbol` from the service itself (never invented): the sell at the newest,
 * the buy `buyAt` trading days before it (3 settles before a book closure starting on the sell date).
 */
export const tradesFor = async (base: string, symbol: string, buyAt = 1): Promise<Trades> => {
  const reply = await fetch(`${base}/v1/prices/${symbol}?limit=5`)
  const body = (await reply.json()) as { items: ReadonlyArray<{ date: string; close: number; flag?: string }> }
  const rows = body.items.filter((r) => r.flag === undefined)
  if (rows.length <= buyAt) throw new Error(`${symbol} has fewer than ${buyAt + 1} recorded closes`)
  return {
    symbol,
    buy: { date: rows[buyAt]!.date, price: rows[buyAt]!.close, quantity: 100 },
    sell: { date: rows[0]!.date, price: rows[0]!.close, quantity: 40 }
  }
}

export const createSession = async (page: Page, base: string) => {
  await page.goto(`${base}/start`)
  await page.getByRole("button", { name: "Start a portfolio" }).click()
  const token = page.getByLabel("Your token")
  await token.waitFor()
  const value = await token.inputValue()
  return value
}

export const acknowledgeSaved = async (page: Page) => {
  await page.getByLabel("I have saved this token somewhere safe").check()
}

export const createKey = async (
  page: Page,
  name: string,
  grants: ReadonlyArray<"portfolio:read" | "portfolio:write">
) => {
  await page.getByLabel("Name", { exact: true }).fill(name)
  for (const grant of ["portfolio:read", "portfolio:write"] as const) {
    await page.getByRole("checkbox", { name: new RegExp(grant) }).setChecked(grants.includes(grant))
  }
  await page.getByRole("button", { name: "Create key" }).click()
  const status = page.locator("#new-key .copy-status")
  await status.filter({ hasText: `Created ${name}` }).waitFor()
  return await page.getByLabel("New key").inputValue()
}

/** Opens the "Add transaction" dialog of the portfolio page, unless it is open. */
export const openDialog = async (page: Page) => {
  if (await page.locator("#tx-dialog[open]").count()) return
  await page.getByRole("button", { name: "Add transaction" }).click()
  await page.locator("#tx-dialog[open]").waitFor()
}

/** Sends the dialog's form and reads what it answered; `close` closes the dialog after. */
const send = async (page: Page, close: boolean) => {
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith("/v1/me/transactions")),
    page.getByRole("button", { name: "Record", exact: true }).click()
  ])
  const shown = page.locator(response.status() === 201 ? "#tx-result.ok" : "#tx-error:not(:empty)")
  await shown.waitFor()
  const text = (await shown.textContent()) ?? ""
  if (close) await page.getByRole("button", { name: "Close", exact: true }).click()
  return { status: response.status(), text }
}

export const record = async (
  page: Page,
  tx: {
    readonly kind: "buy" | "sell"
    readonly symbol: string
    readonly date: string
    readonly quantity: number
    readonly price: number
  },
  close = true
) => {
  await openDialog(page)
  await page.locator("#tx-dialog").getByLabel("Kind").selectOption(tx.kind)
  await page.locator("#tx-dialog").getByLabel("Symbol").fill(tx.symbol)
  await page.locator("#tx-dialog").getByLabel("Trade date").fill(tx.date)
  await page.locator("#tx-dialog").getByLabel("Quantity (shares)").fill(String(tx.quantity))
  await page.locator("#tx-dialog").getByLabel("Price (rupees per share)").fill(String(tx.price))
  return send(page, close)
}

/** Recording a trade through the whole session: opens the portfolio page and records it. */
export const recordTrades = async (page: Page, base: string, trades: Trades) => {
  await page.goto(`${base}/portfolio`)
  const bought = await record(page, { kind: "buy", symbol: trades.symbol, ...trades.buy })
  const sold = await record(page, { kind: "sell", symbol: trades.symbol, ...trades.sell })
  return { bought, sold }
}

/** Records a dividend (gross and tax in rupees) or a bonus issue, with its book closure, with the portfolio page's form. */
export const recordOther = async (
  page: Page,
  tx:
    | {
      readonly kind: "dividend"
      readonly symbol: string
      readonly date: string
      readonly bookClosure: string
      readonly gross: number
      readonly tax: number
    }
    | {
      readonly kind: "bonus"
      readonly symbol: string
      readonly date: string
      readonly bookClosure: string
      readonly percent: number
    }
) => {
  await openDialog(page)
  await page.locator("#tx-dialog").getByLabel("Kind").selectOption(tx.kind)
  await page.locator("#tx-dialog").getByLabel("Symbol").fill(tx.symbol)
  await page.locator("#tx-dialog").getByLabel("Trade date").fill(tx.date)
  await page.locator("#tx-dialog").getByLabel("Book closure from (optional)").fill(tx.bookClosure)
  if (tx.kind === "dividend") {
    await page.locator("#tx-dialog").getByLabel("Gross amount (rupees)").fill(String(tx.gross))
    await page.locator("#tx-dialog").getByLabel("Tax withheld (rupees, optional)").fill(String(tx.tax))
  } else {
    await page.locator("#tx-dialog").getByLabel("Bonus percent").fill(String(tx.percent))
  }
  return send(page, true)
}

/** Reverses the history row whose reversal button is named `label`, giving `reason`. */
export const reverse = async (page: Page, label: string, reason: string) => {
  await page.getByRole("button", { name: `Reverse ${label}` }).click()
  await page.getByLabel(`Reason for reversing ${label}`).fill(reason)
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith("/v1/me/transactions")),
    page.getByRole("button", { name: "Record the reversal" }).click()
  ])
  return response.status()
}
