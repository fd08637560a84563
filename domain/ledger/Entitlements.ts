/**
 * Entitlements: what a portfolio is owed by the payouts the market records
 * (cash dividends, bonus and right issues), computed on read from the
 * ledger's positions. Pure: the caller passes the payouts (with the face
 * value in force on each ex day), the stream's entries and today.
 */
import { lastBuyDate, xdDate } from "../market/calendar/Calendar.ts"
import type { LedgerEvent } from "./Events.ts"
import { FRACTION_UNITS, fromPaisa } from "./Money.ts"
import { bonusShares, dividendAmounts, type Entry, filerOn, orderedEntries, replay } from "./Replay.ts"
import { withholdingPct, withholdingRuleOn } from "./Taxes.ts"

type DividendRecorded = Extract<LedgerEvent, { type: "DividendRecorded" }>

/** A recorded payout as the ledger asks the market for it. */
export interface PayoutFact {
  readonly id: string
  readonly symbol: string
  readonly kind: "cash" | "bonus" | "right"
  readonly details: string
  readonly percent?: number | undefined
  readonly amountPerShare?: number | undefined
  readonly announcedAt?: string | undefined
  /** The closure start (repaired when published before its announcement). */
  readonly bookClosureFrom: string
  readonly bookClosureTo?: string | undefined
  /** Face value in force on the ex day, with where it comes from; absent when unknown. */
  readonly faceValue?: { readonly rupees: number; readonly source: string } | undefined
  readonly dataset: string
}

export type EntitlementState = "due" | "recorded" | "dismissed"

export interface Entitlement {
  readonly id: string
  readonly payout_id: string
  readonly symbol: string
  readonly kind: "cash_dividend" | "bonus" | "right"
  readonly state: EntitlementState
  readonly details: string
  readonly percent?: number
  readonly announced_at?: string
  readonly book_closure_from: string
  readonly book_closure_to?: string
  readonly last_buy_date: string
  readonly xd_date?: string
  readonly credit_date: string
  readonly shares_held: number
  readonly face_value?: number
  readonly face_value_source?: string
  readonly cash_per_share?: number
  readonly gross?: number
  readonly filer?: boolean
  readonly tax_rule?: string
  readonly tax_rate_pct?: number
  readonly tax_withheld?: number
  readonly net?: number
  readonly bonus_shares?: number
  readonly fractional_entitlement?: number
  readonly right_shares?: number
  readonly right_price?: number
  readonly recorded_event_id?: string
  readonly matches?: boolean
  readonly mismatch?: string
  readonly notes: ReadonlyArray<string>
  readonly dataset: string
}

/** An entitlement's id: stable, from the payout's id. */
export const entitlementId = (payoutId: string) => `ent-${payoutId}`

/** Cash per share in hundredths of a paisa: the stated amount, or percent × face value / 100. */
const perShareCentiPaisa = (p: PayoutFact): number | undefined => {
  if (p.amountPerShare !== undefined) return Math.round(p.amountPerShare * 10_000)
  if (p.percent === undefined || p.faceValue === undefined) return undefined
  return Math.round((Math.round(p.percent * 100) * Math.round(p.faceValue.rupees * 100)) / 100)
}

/** The right's price per share: par (the face value), or par plus the premium the text states; else unknown. */
const rightPrice = (p: PayoutFact): number | undefined => {
  if (p.faceValue === undefined) return undefined
  if (/\bAT\s+PAR\b/iu.test(p.details)) return p.faceValue.rupees
  const premium = /PREMIUM\s+OF\s+Rs\.?\s*([\d.]+)/iu.exec(p.details)?.[1]
  const value = premium === undefined ? NaN : Number(premium)
  return Number.isFinite(value) ? fromPaisa(Math.round(p.faceValue.rupees * 100) + Math.round(value * 100)) : undefined
}

type Timeline = (symbol: string, date: string) => number

/** Each symbol's quantity at the end of a date, from one replay of the stream (0 if it does not replay). */
const timelineOf = (entries: ReadonlyArray<Entry>): Timeline => {
  const r = replay(entries)
  const days = new Map<string, Array<{ date: string; quantity: number }>>()
  if (r._tag === "Ok") {
    for (const a of r.applied) {
      const list = days.get(a.symbol) ?? []
      list.push({ date: a.entry.effective_date, quantity: a.quantity })
      days.set(a.symbol, list)
    }
  }
  return (symbol, date) => (days.get(symbol) ?? []).filter((d) => d.date <= date).at(-1)?.quantity ?? 0
}

type Recorded = Entry & { readonly event: DividendRecorded | Extract<Entry["event"], { type: "BonusRecorded" }> }

/** The non-reversed dividend or bonus event of the payout's symbol with the same book closure (`ordered`: Replay.ts `orderedEntries`). */
const recordedFor = (p: PayoutFact, ordered: ReadonlyArray<Entry>): Recorded | undefined =>
  ordered.find((e): e is Recorded => {
    const ev = e.event
    const kindMatches = p.kind === "cash"
      ? ev.type === "DividendRecorded"
      : p.kind === "bonus" && ev.type === "BonusRecorded"
    return kindMatches && "book_closure_from" in ev && ev.symbol === p.symbol &&
      ev.book_closure_from === p.bookClosureFrom
  })

/** Why a recorded event's figures differ from the entitlement's, or undefined when they match. */
const mismatchOf = (rec: Recorded, e: Omit<Entitlement, "state" | "notes">, held: Timeline): string | undefined => {
  const ev = rec.event
  if (ev.entitlement_date !== undefined && ev.entitlement_date !== e.last_buy_date) {
    return `the recorded event is entitled on ${ev.entitlement_date}, the payout's last buy date is ${e.last_buy_date}`
  }
  if (ev.type === "BonusRecorded") {
    const shares = ev.entitlement_date !== undefined
      ? bonusShares(held(ev.symbol, ev.entitlement_date), ev.percent).whole
      : Math.floor(ev.shares_added ?? 0)
    return shares === e.bonus_shares
      ? undefined
      : `the recorded bonus credits ${shares} shares; the position now entitles ${e.bonus_shares}`
  }
  if (e.gross === undefined) return undefined
  const gross = ev.entitlement_date !== undefined
    ? fromPaisa(dividendAmounts(ev, held(ev.symbol, ev.entitlement_date)).gross)
    : (ev.gross_amount ?? 0)
  return gross === e.gross
    ? undefined
    : `the recorded dividend is Rs ${gross} gross; the position now entitles Rs ${e.gross}`
}

/** The figures one payout owes on `held` shares. */
const figuresOf = (p: PayoutFact, held: number, credit: string, entries: ReadonlyArray<Entry>) => {
  const notes: Array<string> = []
  if (p.kind === "bonus") {
    if (p.percent === undefined) return { notes: ["the payout states no bonus percent: shares unknown"] }
    const s = bonusShares(held, p.percent)
    if (s.fraction > 0) {
      notes.push(
        "the fraction is paid in cash when the company sells the consolidated fractions; that amount is not recorded"
      )
    }
    return { bonus_shares: s.whole, fractional_entitlement: s.fraction / FRACTION_UNITS, notes }
  }
  if (p.kind === "right") {
    const price = rightPrice(p)
    if (price === undefined) {
      notes.push(
        "the right's price is not recorded (the payout's text states neither par nor a premium, or the face value is unknown)"
      )
    }
    return {
      ...(p.percent !== undefined ? { right_shares: bonusShares(held, p.percent).whole } : {}),
      ...(price !== undefined ? { right_price: price } : {}),
      notes
    }
  }
  const cp = perShareCentiPaisa(p)
  if (cp === undefined || cp <= 0) {
    return { notes: ["no face value is recorded for this company on the ex day: rupees unknown"] }
  }
  const per_share = cp / 10_000
  const filer = filerOn(entries, credit)
  const rule = withholdingRuleOn(credit)
  const pct = filer !== undefined && rule !== undefined ? withholdingPct(rule, filer) : undefined
  const probe: DividendRecorded = {
    type: "DividendRecorded",
    symbol: p.symbol,
    trade_date: credit,
    per_share,
    ...(pct !== undefined ? { tax_rate_pct: pct } : {})
  }
  const { gross, tax } = dividendAmounts(probe, held)
  if (filer === undefined) {
    notes.push("the portfolio records no filer status: tax and net unknown (record one with kind tax_status)")
  }
  return {
    cash_per_share: per_share,
    gross: fromPaisa(gross),
    ...(filer !== undefined && rule !== undefined && pct !== undefined
      ? { filer, tax_rule: rule.id, tax_rate_pct: pct, tax_withheld: fromPaisa(tax), net: fromPaisa(gross - tax) }
      : {}),
    notes
  }
}

/** One payout per symbol, kind, book closure and size: the same payout seen in two recordings (a different announcement time) keeps its smallest id. */
const samePayoutOnce = (payouts: ReadonlyArray<PayoutFact>) => {
  const kept = new Map<string, PayoutFact>()
  for (const p of payouts) {
    const key = [p.symbol, p.kind, p.bookClosureFrom, p.percent, p.amountPerShare].join("|")
    const had = kept.get(key)
    if (had === undefined || p.id < had.id) kept.set(key, p)
  }
  return [...kept.values()]
}

/**
 * The entitlements of a portfolio: one per payout of a symbol in its ledger whose last buy date is before
 * `today` and on which shares were held (or a matching event is recorded). Newest book closure first.
 *
 * - The shares entitled are those held at the end of the last buy date of
 *   the book closure (domain/market/calendar/Calendar.ts `lastBuyDate`, the one
 *   rule: T+2 to 6 Feb 2026, T+1 from 9 Feb 2026, trading days only).
 * - Cash per share = percent × face value / 100 (or the amount the row
 *   states); gross, tax and net use the replay's own arithmetic
 *   (Replay.ts `dividendAmounts`) with the withholding rule in force on the
 *   credit date and the filer status the portfolio recorded for it.
 * - A bonus credits whole shares; the fraction is a cash entitlement whose
 *   rupees the company sets when it sells the consolidated fractions (not
 *   recorded: never computed). A right offers whole shares at par (the face
 *   value) or par plus a premium, when the payout's text says which.
 * - A payout is listed once its last buy date has passed (the position then
 *   decides it) and shares were held on it, or a matching event exists.
 *   `recorded`: a non-reversed dividend or bonus event of the symbol with
 *   the same book closure; its figures are compared, so a backdated trade
 *   that changes the position is flagged on an event whose amount is fixed.
 */
export const entitlementsOf = (
  payouts: ReadonlyArray<PayoutFact>,
  entries: ReadonlyArray<Entry>,
  today: string,
  dismissed: ReadonlySet<string>
): ReadonlyArray<Entitlement> => {
  const held = timelineOf(entries)
  const ordered = orderedEntries(entries)
  const out: Array<Entitlement> = []
  for (const p of samePayoutOnce(payouts)) {
    const last = lastBuyDate(p.bookClosureFrom)
    if (last === undefined || last >= today) continue
    const shares = held(p.symbol, last)
    const rec = recordedFor(p, ordered)
    if (shares <= 0 && rec === undefined) continue
    const credit = p.bookClosureTo ?? p.bookClosureFrom
    const xd = xdDate(p.bookClosureFrom)
    const { notes, ...figures } = figuresOf(p, shares, credit, entries)
    const base = {
      id: entitlementId(p.id),
      payout_id: p.id,
      symbol: p.symbol,
      kind: p.kind === "cash" ? "cash_dividend" as const : p.kind,
      details: p.details,
      ...(p.percent !== undefined ? { percent: p.percent } : {}),
      ...(p.announcedAt !== undefined ? { announced_at: p.announcedAt } : {}),
      book_closure_from: p.bookClosureFrom,
      ...(p.bookClosureTo !== undefined ? { book_closure_to: p.bookClosureTo } : {}),
      last_buy_date: last,
      ...(xd !== undefined ? { xd_date: xd } : {}),
      credit_date: credit,
      shares_held: shares,
      ...(p.faceValue !== undefined ? { face_value: p.faceValue.rupees, face_value_source: p.faceValue.source } : {}),
      ...figures,
      dataset: p.dataset
    }
    const mismatch = rec === undefined ? undefined : mismatchOf(rec, base, held)
    out.push({
      ...base,
      state: rec !== undefined ? "recorded" : dismissed.has(base.id) ? "dismissed" : "due",
      ...(rec !== undefined ? { recorded_event_id: rec.event_id, matches: mismatch === undefined } : {}),
      ...(mismatch !== undefined ? { mismatch } : {}),
      notes
    })
  }
  return out.sort((
    a,
    b
  ) => (a.book_closure_from < b.book_closure_from
    ? 1
    : a.book_closure_from > b.book_closure_from
    ? -1
    : a.id.localeCompare(b.id))
  )
}
