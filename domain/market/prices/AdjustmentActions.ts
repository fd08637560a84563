/**
 * A symbol's corporate actions as the price adjustment needs them
 * (Adjustment.ts): each with the first session on its new basis and its
 * terms as exact fractions, or the reason its date or terms are unknown.
 * Pure; read from the recorded payouts, the exchange's XD/XB/XR markers and
 * the sourced face-value records.
 */
import { karachiDateOf } from "../../Karachi.ts"
import { xdDate } from "../calendar/Calendar.ts"
import type { PayoutRecord } from "../filings/Dividends.ts"
import { repairExDate } from "../filings/Dividends.ts"
import { type FaceValueRecord, faceValueRecords } from "../filings/FaceValues.ts"
import type { SymbolData } from "../snapshot/Snapshot.ts"
import type { ActionRow } from "../snapshot/StoreRows.ts"
import { add, div, fromDecimal, mul, ONE, ratio, type Rational, sub } from "./Rational.ts"

export type ActionKind = "bonus" | "split" | "right" | "cash_dividend"

/** How an action's factor follows from the close before it. */
export type Terms =
  | { readonly type: "fixed"; readonly factor: Rational; readonly volume: Rational }
  | { readonly type: "right"; readonly perShare: Rational; readonly price: Rational }
  | { readonly type: "cash"; readonly amount: Rational }

export interface CorporateAction {
  readonly kind: ActionKind
  /** The first session on the new basis, when known. */
  readonly date?: string
  /** When `date` is unknown: it lies on or after `from` and on or before `by` (either may be unknown too). */
  readonly from?: string
  readonly by?: string
  readonly terms?: Terms
  /** Why the terms or the date are unknown (set exactly when the action cannot be applied). */
  readonly unknown?: string
  /** The record in words (the exchange's details, or the face values). */
  readonly description: string
  /** The dataset (or the sourced record) it was read from. */
  readonly source: string
  /** Where it was read: the payout record (whose start bounds what is known), a face-value record, or another recorded row. */
  readonly origin: "payout" | "face_value" | "other"
  readonly faceValueSource?: string
}

/** The face value in force on a day, with its source, or undefined. */
type FaceValueOn = (date: string) => { readonly rupees: number; readonly source: string } | undefined

/** The sourced face value on a day, else the company page's when nothing can have changed it. */
export const faceValueSource = (
  symbol: string,
  page: { readonly rupees: number; readonly dataset: string } | undefined,
  restatedBySource: boolean | "unknown"
): FaceValueOn => {
  const records = faceValueRecords.filter((r) => r.symbol === symbol)
  return (date) => {
    const r = records.find((x) =>
      (x.from === undefined || date >= x.from) && (x.until === undefined || date <= x.until)
    )
    if (r !== undefined) return { rupees: r.rupees, source: r.source }
    return records.length === 0 && restatedBySource !== true && page !== undefined
      ? { rupees: page.rupees, source: `the company page's face value (${page.dataset})` }
      : undefined
  }
}

/** A percent as a fraction of one (12.5 → 1/8). */
const percentOf = (percent: number): Rational => div(fromDecimal(percent), ratio(100n, 1n))

/** A bonus of b%: b new shares per 100 held. */
const bonusTerms = (percent: number): Terms => {
  const shares = add(ONE, percentOf(percent))
  return { type: "fixed", factor: div(ONE, shares), volume: shares }
}

/** The subscription price of a right from its details, given the face value; or why it is unknown. */
const subscriptionPrice = (details: string, face: number | undefined): Rational | string => {
  const rupees = (re: RegExp) => {
    const m = re.exec(details)
    return m ? fromDecimal(Number(m[1]!.replace(/\.$/u, ""))) : undefined
  }
  const premium = rupees(/PREMIUM\s+OF\s+RS\.?\s*([\d.]+)/iu), discount = rupees(/DISCOUNT\s+OF\s+RS\.?\s*([\d.]+)/iu)
  const atPar = /\bAT\s+PAR\b/iu.test(details)
  if (premium === undefined && discount === undefined && !atPar) {
    return rupees(/(?:\bAT|@)\s*RS\.?\s*([\d.]+)/iu) ?? "no subscription price is recorded"
  }
  if (face === undefined) return "the subscription price is set against the face value, which is not recorded"
  const f = fromDecimal(face)
  return premium !== undefined ? add(f, premium) : discount !== undefined ? sub(f, discount) : f
}

const termsOf = (
  p: PayoutRecord,
  day: string | undefined,
  face: FaceValueOn
): { terms?: Terms; unknown?: string; faceValueSource?: string } => {
  if (p.kind === "bonus") {
    return p.percent !== undefined && p.percent > 0
      ? { terms: bonusTerms(p.percent) }
      : { unknown: "the bonus percent is not recorded" }
  }
  const fv = day !== undefined ? face(day) : undefined
  const fvSource = fv !== undefined ? { faceValueSource: fv.source } : {}
  if (p.kind === "cash") {
    if (p.amountPerShare !== undefined) return { terms: { type: "cash", amount: fromDecimal(p.amountPerShare) } }
    if (p.percent === undefined) return { unknown: "the dividend's percent is not recorded" }
    if (fv === undefined) {
      return { unknown: `the face value on ${day ?? "its XD day"} is not recorded: the dividend in rupees is unknown` }
    }
    return { terms: { type: "cash", amount: mul(percentOf(p.percent), fromDecimal(fv.rupees)) }, ...fvSource }
  }
  if (p.percent === undefined || !(p.percent > 0)) return { unknown: "the right's ratio is not recorded" }
  const price = subscriptionPrice(p.details, fv?.rupees)
  if (typeof price === "string") return { unknown: price }
  return { terms: { type: "right", perShare: percentOf(p.percent), price }, ...fvSource }
}

const KINDS = { cash: "cash_dividend", bonus: "bonus", right: "right" } as const

/** One recorded payout as an action (before undated ones are bounded). */
const payoutAction = (p: PayoutRecord, face: FaceValueOn): CorporateAction & { readonly announced?: string } => {
  const closure = p.bookClosureFrom !== undefined ? repairExDate(p.bookClosureFrom, p.announcedAt).ex_date : undefined
  const date = closure !== undefined ? xdDate(closure) : undefined
  const announced = p.announcedAt !== undefined ? karachiDateOf(p.announcedAt) : undefined
  const { terms, unknown, faceValueSource } = termsOf(p, date ?? closure, face)
  const undated = date === undefined
    ? (closure !== undefined
      ? "its XD day is not known: no settlement cycle is sourced for then"
      : "no book closure is recorded, so its XD day is not known")
    : undefined
  const why = [unknown, undated].filter((x) => x !== undefined).join("; ")
  return {
    kind: KINDS[p.kind],
    ...(date !== undefined
      ? { date }
      : { ...(announced !== undefined ? { from: announced } : {}), ...(closure !== undefined ? { by: closure } : {}) }),
    ...(terms !== undefined ? { terms } : {}),
    ...(why !== "" ? { unknown: why } : {}),
    description: p.details.trim(),
    source: p.dataset ?? "payouts",
    origin: "payout",
    ...(faceValueSource !== undefined ? { faceValueSource } : {}),
    ...(announced !== undefined ? { announced } : {})
  }
}

/** Face-value changes of the symbol as splits (or consolidations), from consecutive sourced records. */
const faceValueSplits = (symbol: string): Array<CorporateAction> => {
  const records = faceValueRecords.filter((r) => r.symbol === symbol && (r.from !== undefined || r.until !== undefined))
    .sort((a, b) => ((a.from ?? a.until!) < (b.from ?? b.until!) ? -1 : 1))
  const out: Array<CorporateAction> = []
  for (let i = 1; i < records.length; i++) {
    const older: FaceValueRecord = records[i - 1]!, newer: FaceValueRecord = records[i]!
    if (older.until === undefined || newer.from === undefined || older.rupees === newer.rupees) continue
    const o = fromDecimal(older.rupees), n = fromDecimal(newer.rupees)
    out.push({
      kind: "split",
      date: newer.from,
      terms: { type: "fixed", factor: ratio(n.n * o.d, n.d * o.n), volume: ratio(o.n * n.d, o.d * n.n) },
      description:
        `face value Rs ${older.rupees} (until ${older.until}) → Rs ${newer.rupees} (from ${newer.from}): a ` +
        (newer.rupees < older.rupees
          ? `${older.rupees / newer.rupees}-for-1 sub-division`
          : `1-for-${newer.rupees / older.rupees} consolidation`),
      source: newer.source,
      origin: "face_value"
    })
  }
  return out
}

const MARKER_KINDS: Readonly<Record<string, ActionKind>> = {
  ex_dividend: "cash_dividend",
  ex_bonus: "bonus",
  ex_right: "right"
}

/** Recorded rows that are not payouts: unmatched XD/XB/XR markers, and split rows without sourced terms. */
const otherActions = (
  rows: ReadonlyArray<ActionRow>,
  payouts: ReadonlyArray<CorporateAction>
): Array<CorporateAction> =>
  rows.flatMap((r): Array<CorporateAction> => {
    const d = r.xd_date ?? undefined
    const marker = MARKER_KINDS[r.kind]
    if (marker !== undefined && d !== undefined) {
      const matched = payouts.some((p) =>
        p.kind === marker && (p.date === d || (p.date === undefined && (p.from ?? d) <= d && d <= (p.by ?? d)))
      )
      return matched
        ? []
        : [{
          kind: marker,
          date: d,
          unknown: "the exchange marked the day ex, but no payout with its terms is recorded",
          description: r.details,
          source: r.dataset,
          origin: "other"
        }]
    }
    if (r.kind !== "split" && r.kind !== "consolidation") return []
    return [{
      kind: "split",
      ...(d !== undefined ? { date: d } : {}),
      unknown: "recorded without sourced terms",
      description: r.details,
      source: r.dataset,
      origin: "other"
    }]
  })

/**
 * Every recorded corporate action of a symbol, oldest first (by day, or by its bound when undated).
 *
 * - Payouts (cash, bonus, right): dated on their XD day, the trading day
 *   after the last buy date before the book closure (Dividends.ts,
 *   Calendar.ts). Where the settlement cycle of the time is not sourced the
 *   day is unknown, but it lies between the announcement and the closure's
 *   first day (`from`..`by`). A payout recorded with no book closure at all
 *   lies before the next payout the exchange lists after it (the payout
 *   record is in date order): `by` is that payout's day.
 * - Bonus b%: price factor 100 / (100 + b), volumes × (100 + b) / 100.
 * - Cash dividend: the rupee amount if recorded, else percent × the face
 *   value in force on the XD day (FaceValues.ts; else the company page's
 *   face value, only for a symbol with no recorded face-value change and a
 *   series the source did not restate). No face value: terms unknown.
 * - Right r% at subscription price S: "AT PAR" is S = face value, "AT A
 *   PREMIUM OF Rs x" is face + x, "AT A DISCOUNT OF Rs x" is face − x, "AT
 *   Rs x" is x; anything else, or an unknown face value: terms unknown.
 * - Split or consolidation: two sourced face values of the symbol, the older
 *   until one day and the newer from a later one: price factor new / old
 *   (5-for-1 from Rs 10 to Rs 2: 2 / 10), dated the first session on the
 *   new face value. A `split` or `consolidation` row of the corporate
 *   actions carries no sourced terms: unknown.
 * - An XD, XB or XR marker of the exchange's market summary is the payout of
 *   the same kind due that day; without one, an action of unknown terms.
 * - The same payout recorded twice (the same kind, day and details, however
 *   spaced) counts once.
 */
export const corporateActions = (input: {
  readonly symbol: string
  readonly payouts: ReadonlyArray<PayoutRecord>
  readonly rows: ReadonlyArray<ActionRow>
  readonly faceValue: FaceValueOn
}): Array<CorporateAction> => {
  // The same payout recorded twice (two recordings, spelled apart: "70% (iii) (D)", "70%(iii) (D)") is one action.
  const same = (a: CorporateAction) =>
    `${a.kind}|${a.date ?? a.by ?? a.from ?? ""}|${a.description.replace(/\s+/gu, "").toUpperCase()}`
  const raw = [...new Map(input.payouts.map((p) => payoutAction(p, input.faceValue)).map((a) => [same(a), a])).values()]
  // A payout with no closure lies before the next one listed after it (by announcement).
  const payouts = raw.map(({ announced, ...a }) => {
    if (a.date !== undefined || a.by !== undefined || announced === undefined) return a
    const later = raw.filter((b) => b.announced !== undefined && b.announced > announced).map((b) => b.date ?? b.by)
      .filter((x): x is string => x !== undefined).sort()
    return later[0] !== undefined ? { ...a, by: later[0] } : a
  })
  const all = [...payouts, ...faceValueSplits(input.symbol), ...otherActions(input.rows, payouts)]
  const key = (a: CorporateAction) => a.date ?? a.by ?? a.from ?? ""
  return all.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0))
}

/** Every recorded action of a listed symbol, from its read-model data. */
export const symbolActions = (data: SymbolData): Array<CorporateAction> => {
  const symbol = data.security.symbol
  const page = data.fundamentals?.face_value
  return corporateActions({
    symbol,
    payouts: data.payouts,
    rows: data.actions,
    faceValue: faceValueSource(
      symbol,
      page != null ? { rupees: page, dataset: data.fundamentals!.dataset } : undefined,
      data.restatement.restated
    )
  })
}
