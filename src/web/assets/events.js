// @ts-check
// One line of text for a ledger event, shared by the portfolio history and
// the ledger page; and the user's whole ledger, read page by page.
/** @template [T=any] @typedef {import("./api.js").Reply<T>} Reply */
/** @template {keyof import("./api-types").operations} Op @typedef {import("./api.js").Success<Op>} Success */
import { api } from "./api.js"
import { dateText, formatNumber } from "./format.js"

const qty = { format: (/** @type {number} */ v) => (Number.isInteger(v) ? formatNumber(v, 0) : formatNumber(v, 4).replace(/0+$/, "")) }
const money = { format: (/** @type {number} */ v) => formatNumber(v, 2) }
/** A rupee amount without ".00" when whole. @param {number} v */
const rupees = (v) => `Rs ${formatNumber(v, Number.isInteger(v) ? 0 : 2)}`

/** The book closure and the entitlement date (the last buy date) the API stored, when it did. */
const entitlement = (p) => [
  ...(typeof p.book_closure_from === "string" ? [`book closure from ${dateText(p.book_closure_from)}`] : []),
  ...(typeof p.entitlement_date === "string" ? [`entitled: shares held at ${dateText(p.entitlement_date)}`] : [])
]

/** What was declared (per share, or the warrant's gross and tax), never an amount the API did not store. */
const dividendDetails = (p) => {
  const declared = typeof p.per_share === "number" ? [`Rs ${money.format(p.per_share)} per share declared`] : []
  const warrant = [
    ...(typeof p.gross_amount === "number" ? [`gross ${rupees(p.gross_amount)}`] : []),
    ...(typeof p.tax_withheld === "number" ? [`tax ${rupees(p.tax_withheld)}`] : []),
    ...(typeof p.net_amount === "number" ? [`net ${rupees(p.net_amount)}`] : [])
  ]
  const tax =
    typeof p.tax_rule === "string"
      ? [`tax withheld${typeof p.tax_rate_pct === "number" ? ` at ${p.tax_rate_pct}%` : " by the rule in force"}${typeof p.filer === "boolean" ? `, ${p.filer ? "filer" : "non-filer"}` : ""}`]
      : []
  return [...declared, ...(warrant.length ? [warrant.join(", ")] : []), ...entitlement(p), ...tax].join("; ")
}

const DESCRIBE = {
  TradeRecorded: (p) => ({
    kind: p.side === "sell" ? "Sell" : "Buy",
    details: `${qty.format(p.quantity)} at Rs ${money.format(p.price)}${p.fees ? `, fees ${rupees(p.fees)}` : ""}; settles ${dateText(p.settlement_date)}`
  }),
  DividendRecorded: (p) => ({ kind: "Dividend", details: dividendDetails(p) }),
  BonusRecorded: (p) => ({
    kind: "Bonus",
    details: [`${p.percent}% declared`, ...entitlement(p), ...(typeof p.shares_added === "number" ? [`${qty.format(p.shares_added)} shares added (as recorded)`] : [])].join("; ")
  }),
  SplitRecorded: (p) => ({ kind: "Split", details: `${p.numerator} for ${p.denominator}` }),
  TransactionReversed: (p) => ({ kind: "Reversal", details: `reverses ${p.reverses}: ${p.reason}` }),
  TaxStatusRecorded: (p) => ({ kind: "Tax status", details: `${p.filer ? "filer" : "non-filer"} from ${dateText(p.trade_date)}` }),
  DonationRecorded: (p) => ({ kind: "Donation", details: `${rupees(p.amount)} (${p.currency}), ${p.status}` })
}

export const describeEvent = (event) => {
  const p = event.payload && typeof event.payload === "object" ? event.payload : {}
  const describe = DESCRIBE[event.type]
  const d = describe ? describe(p) : { kind: event.type, details: "" }
  return { ...d, symbol: typeof p.symbol === "string" ? p.symbol : undefined }
}

/** @typedef {{ event_id: string, version: number, type: string, effective_date: string, recorded_at: string, payload: any }} LedgerEvent */

/**
 * Every event of the user's ledger, oldest first (pages of 1,000).
 * @returns {Promise<{ ok: true, events: LedgerEvent[] } | { ok: false, reply: Reply }>}
 */
export const allEvents = async () => {
  /** @type {LedgerEvent[]} */
  const events = []
  let cursor = null
  for (let page = 0; page < 50; page++) {
    const query = new URLSearchParams({ limit: "1000" })
    if (cursor) query.set("cursor", cursor)
    /** @type {Reply<Success<"portfolio.ledger">>} */
    const reply = await api("GET", `/v1/me/ledger?${query}`)
    if (!reply.ok) return { ok: /** @type {const} */ (false), reply }
    events.push(...reply.body.items)
    cursor = reply.body.next_cursor
    if (!cursor) break
  }
  events.sort((a, b) => a.version - b.version)
  return { ok: /** @type {const} */ (true), events }
}

/** Event ids a later TransactionReversed event undid. @param {LedgerEvent[]} events */
export const reversedIds = (events) => new Set(events.filter((e) => e.type === "TransactionReversed").map((e) => e.payload?.reverses))

