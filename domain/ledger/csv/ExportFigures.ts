/**
 * The figures the export writes beside a dividend or bonus row, as the ledger
 * computes them from the positions: a dividend's shares entitled and its
 * gross, tax and net rupees; a bonus's whole shares credited. A reversed
 * event paid nothing and gets none; an older dividend stored without its
 * entitlement date gets no shares; after a replay failure, no event does.
 */
import { fromPaisa } from "../Money.ts"
import type { Entry } from "../Replay.ts"
import { isFailure, orderedEntries, Replayer } from "../Replay.ts"

export interface Figures {
  readonly shares?: number
  readonly dividend_gross?: number
  readonly dividend_tax?: number
  readonly dividend_net?: number
}

/** Each dividend's and bonus's figures, by event id. */
export const exportFigures = (entries: ReadonlyArray<Entry>): ReadonlyMap<string, Figures> => {
  const figures = new Map<string, Figures>()
  const replayer = new Replayer()
  const held = new Map<string, Array<{ readonly date: string; readonly quantity: number }>>()
  const heldAt = (symbol: string, date: string) =>
    (held.get(symbol) ?? []).findLast((h) => h.date <= date)?.quantity ?? 0
  for (const e of orderedEntries(entries)) {
    const ev = e.event
    if (ev.type === "TransactionReversed" || ev.type === "TaxStatusRecorded" || ev.type === "DonationRecorded") continue
    const before = replayer.book(ev.symbol)
    if (isFailure(replayer.step(e))) break
    const after = replayer.book(ev.symbol)
    const history = held.get(ev.symbol) ?? []
    history.push({ date: e.effective_date, quantity: after.quantity })
    held.set(ev.symbol, history)
    if (ev.type === "BonusRecorded") figures.set(e.event_id, { shares: after.quantity - before.quantity })
    if (ev.type === "DividendRecorded") {
      const gross = after.gross - before.gross
      const tax = after.tax - before.tax
      figures.set(e.event_id, {
        ...(ev.entitlement_date !== undefined ? { shares: heldAt(ev.symbol, ev.entitlement_date) } : {}),
        dividend_gross: fromPaisa(gross),
        dividend_tax: fromPaisa(tax),
        dividend_net: fromPaisa(gross - tax)
      })
    }
  }
  return figures
}
