/**
 * Ledger events: one Schema union with a literal `type` and its payload. An
 * event is never changed; a mistake is corrected by a `TransactionReversed`
 * event naming the event it cancels and why. Amounts are rupees; quantities
 * may be fractional (bonus entitlements are recorded, not rounded away).
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

export const DividendRecorded = Schema.Struct({
  type: Schema.Literal("DividendRecorded"),
  symbol: Schema.String,
  trade_date: IsoDate,
  gross_amount: NonNegative,
  tax_withheld: NonNegative,
  net_amount: NonNegative,
  per_share: Schema.optionalKey(Positive)
})

export const BonusRecorded = Schema.Struct({
  type: Schema.Literal("BonusRecorded"),
  symbol: Schema.String,
  trade_date: IsoDate,
  /** As the exchange states it: 10 means 10%, one new share for every ten held. */
  percent: Positive,
  /** New shares credited, fractional part included. */
  shares_added: NonNegative,
  fractional_entitlement: NonNegative
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

export const DonationRecorded = Schema.Struct({
  type: Schema.Literal("DonationRecorded"),
  donation_id: Schema.String,
  amount: Positive,
  currency: Schema.Literal("PKR"),
  note: Schema.optionalKey(Schema.String),
  status: Schema.Literal("pending")
})

export const LedgerEvent = Schema.Union([
  TradeRecorded,
  DividendRecorded,
  BonusRecorded,
  SplitRecorded,
  TransactionReversed,
  DonationRecorded
])
export type LedgerEvent = typeof LedgerEvent.Type
export type PortfolioEvent = Exclude<LedgerEvent, { type: "DonationRecorded" }>

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

/** The date an event takes effect (its trade date; a donation's recording date). */
export const effectiveDate = (e: LedgerEvent, recordedDate: string): string =>
  e.type === "DonationRecorded" ? recordedDate : e.trade_date
