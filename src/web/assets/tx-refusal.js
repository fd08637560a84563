// @ts-check
// Why the "Add transaction" dialog's entry was refused, in words: an oversold
// sale names the shares held that day (from the recorded buys and sells),
// anything else is the service's own message without its code.
/** @template [T=any] @typedef {import("./api.js").Reply<T>} Reply */
import { dateText } from "./api.js"
import { allEvents, reversedIds } from "./events.js"
import { formatNumber } from "./format.js"
import { humanError } from "./ui.js"

/**
 * Shares of `symbol` held at the end of `date` from the buys and sells recorded (reversed ones left out); undefined
 * when a bonus or split of it came first (its shares are the server's to count, so no number is guessed).
 * @param {import("./events.js").LedgerEvent[]} events @param {string} symbol @param {string} date
 */
const heldOn = (events, symbol, date) => {
  const reversed = reversedIds(events)
  let held = 0
  for (const e of events) {
    if (reversed.has(e.event_id) || e.payload?.symbol !== symbol || e.effective_date > date) continue
    if (e.type === "BonusRecorded" || e.type === "SplitRecorded") return undefined
    if (e.type === "TradeRecorded" || e.type === "BuyRecorded" || e.type === "SellRecorded") {
      const q = Number(e.payload.quantity)
      held += (e.payload.side ?? e.payload.kind ?? (e.type === "SellRecorded" ? "sell" : "buy")) === "sell" ? -q : q
    }
  }
  return held
}

/**
 * A refusal as a sentence: an oversell names what is held on that day ("You hold 150 FFC on 25 May 2026"), from the
 * holdings as of the trade date; anything else is the service's own message without its code.
 * @param {Reply} reply @param {Record<string, unknown>} sent the body that was refused
 */
export const refusalInWords = async (reply, sent) => {
  const message = String(reply.body?.message ?? "")
  if (reply.status === 400 && sent.kind === "sell" && /sell more/i.test(message)) {
    const date = String(sent.trade_date)
    const symbol = String(sent.symbol)
    const ledger = await allEvents()
    const quantity = ledger.ok ? heldOn(ledger.events, symbol, date) : undefined
    return quantity === undefined
      ? `You do not hold that many ${symbol} on ${dateText(date)}: a position can never be negative.`
      : `You hold ${formatNumber(quantity, 0)} ${symbol} on ${dateText(date)}: a sale can be at most that.`
  }
  if (reply.status === 400 && message) return message.charAt(0).toUpperCase() + message.slice(1).replace(/\.?$/, ".")
  return humanError(reply)
}
