/**
 * Ledger events: one Schema union with a literal `type` and its payload. An
 * event is never changed; a mistake is corrected by a `TransactionReversed`
 * event naming the event it cancels and why. Amounts are rupees with at most
 * two decimals (computed in integer paisa); quantities are whole shares.
 *
 * Entitlements are stored as what the company declared, not as amounts: a
 * bonus as its percent, a dividend per share (or the gross the warrant
 * shows), each with the book closure and the entitlement date (the last buy
 * date). Shares and rupees are computed in the replay from the position held
 * on that date, so a backdated trade re-derives them. Events recorded before
 * this (no `entitlement_date`) keep the amounts they stored.
 */
import { Schema } from "effect"

const Positive = Schema.Finite.check(Schema.isGreaterThan(0))
const NonNegative = Schema.Finite.check(Schema.isGreaterThanOrEqualTo(0))
const IsoDate = Schema.String.check(Schema.isPattern(/^\d{4}-\d{2}-\d{2}$/u))

export const TradeRecorded = Schema.Struct({
  type: Schema.Literal("TradeRecorded"),
  side: Schema.Literals(["buy", "sell"]),
  symbol: Schema.String,
  quantity: Positive,
  price: Positive,
  fees: NonNegative,
  trade_date: IsoDate,
  settlement_date: IsoDate,
  /** Warnings the service raised when recording (e.g. a price outside that day's circuit breaker). */
  flags: Schema.Array(Schema.String)
})

const opt = <S extends Schema.Top>(s: S) => Schema.optionalKey(s)

export const DividendRecorded = Schema.Struct({
  type: Schema.Literal("DividendRecorded"),
  symbol: Schema.String,
  /** The payment (credit) date. */
  trade_date: IsoDate,
  book_closure_from: opt(IsoDate),
  /** The last buy date: the position held at its end is the one entitled. */
  entitlement_date: opt(IsoDate),
  per_share: opt(Positive),
  /** Given instead of `per_share`: the gross the warrant shows (or, on an older event, the computed gross). */
  gross_amount: opt(NonNegative),
  /** Tax the warrant shows (or, on an older event, as recorded); else it follows `tax_rule`. */
  tax_withheld: opt(NonNegative),
  tax_rule: opt(Schema.String),
  tax_rate_pct: opt(NonNegative),
  filer: opt(Schema.Boolean),
  /** Older events only. */
  net_amount: opt(NonNegative)
})

export const BonusRecorded = Schema.Struct({
  type: Schema.Literal("BonusRecorded"),
  symbol: Schema.String,
  trade_date: IsoDate,
  /** As the exchange states it: 10 means 10%, one new share for every ten held. */
  percent: Positive,
  book_closure_from: opt(IsoDate),
  entitlement_date: opt(IsoDate),
  /** Older events only: the shares they added, fractional part included. */
  shares_added: opt(NonNegative),
  fractional_entitlement: opt(NonNegative)
})

export const SplitRecorded = Schema.Struct({
  type: Schema.Literal("SplitRecorded"),
  symbol: Schema.String,
  trade_date: IsoDate,
  numerator: Schema.Int.check(Schema.isGreaterThan(0)),
  denominator: Schema.Int.check(Schema.isGreaterThan(0))
})

export const TransactionReversed = Schema.Struct({
  type: Schema.Literal("TransactionReversed"),
  reverses: Schema.String,
  symbol: Schema.String,
  trade_date: IsoDate,
  reason: Schema.String
})

/** The portfolio's filer status (Active Taxpayers List) from `trade_date` on; it picks the withholding rate. */
export const TaxStatusRecorded = Schema.Struct({
  type: Schema.Literal("TaxStatusRecorded"),
  filer: Schema.Boolean,
  trade_date: IsoDate
})

export const DonationRecorded = Schema.Struct({
  type: Schema.Literal("DonationRecorded"),
  donation_id: Schema.String,
  amount: Positive,
  currency: Schema.Literal("PKR"),
  note: Schema.optionalKey(Schema.String),
  status: Schema.Literal("pending"),
  /** The date it was recorded in the ledger it was imported from (CSV import); absent: its recording date. */
  date: Schema.optionalKey(IsoDate)
})

export const LedgerEvent = Schema.Union([
  TradeRecorded,
  DividendRecorded,
  BonusRecorded,
  SplitRecorded,
  TransactionReversed,
  TaxStatusRecorded,
  DonationRecorded
])
export type LedgerEvent = typeof LedgerEvent.Type
export type PortfolioEvent = Exclude<LedgerEvent, { type: "DonationRecorded" }>
/** Events that change one symbol's position. */
export type PositionEvent = Exclude<PortfolioEvent, { type: "TransactionReversed" | "TaxStatusRecorded" }>

/** An event as stored: its place in the stream and the ledger. */
export interface StoredEvent<E = LedgerEvent> {
  readonly position: number
  readonly stream_id: string
  readonly version: number
  readonly event_id: string
  readonly recorded_at: string
  readonly effective_date: string
  readonly event: E
  readonly prev_hash: string
  readonly hash: string
}

/** The date an event takes effect (its trade date; a donation's recording date, or the date it was imported with). */
export const effectiveDate = (e: LedgerEvent, recordedDate: string): string =>
  e.type === "DonationRecorded" ? (e.date ?? recordedDate) : e.trade_date
