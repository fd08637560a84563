/**
 * The portal's payout notation: "40%(F) (D)" = 40% of face value, final,
 * cash; "(i)", "(ii)", "(iii)" = 1st/2nd/3rd interim; (D) cash, (B) bonus,
 * (R) right. Combined entries ("25%(F) (D) 10%(B)") hold several payouts;
 * old rows say "Rs.5 (D)" (an amount per share) or drop the percent sign
 * ("80(ii) (D)"). Also "30/06/2026(HYR)" for the period a payout belongs to.
 */
import { parseDate, parseNumber } from "./Values.ts"

export type PayoutKind = "cash" | "bonus" | "right"
export type PayoutSequence = "final" | "interim-1" | "interim-2" | "interim-3" | "interim-4"

export interface PayoutPart {
  readonly kind: PayoutKind
  /** Percent of face value (cash) or of holding (bonus, right). */
  readonly percent?: number
  /** Rupees per share, when the row states an amount instead of a percent. */
  readonly amountPerShare?: number
  readonly sequence?: PayoutSequence
}

const kindOf: Record<string, PayoutKind> = { D: "cash", B: "bonus", R: "right" }
const sequenceOf: Record<string, PayoutSequence> = {
  F: "final",
  I: "interim-1",
  II: "interim-2",
  III: "interim-3",
  IV: "interim-4"
}

/**
 * Parts of one Details cell, in order. A part whose size cannot be read is
 * left out (the caller counts it); an empty answer means nothing was read.
 */
export const parsePayoutDetails = (raw: string): ReadonlyArray<PayoutPart> => {
  const parts: Array<PayoutPart> = []
  // A size (percent or Rs amount), optional (sequence), then a (D|B|R) marker.
  const re = /(Rs\.?\s*)?([\dO][\dO,.]*)\s*(%?)\s*(?:\(\s*(F|i{1,3}|iv)\s*\))?\s*(?:\(\s*([DBR])\s*\)|([DBR])\b)?/gi
  for (const m of raw.matchAll(re)) {
    const [, rs, size, , seq, marker1, marker2] = m
    const marker = (marker1 ?? marker2)?.toUpperCase()
    if (size === undefined || marker === undefined) continue
    const value = parseNumber(size)
    if (value === undefined) continue
    const kind = kindOf[marker]!
    const sequence = seq ? sequenceOf[seq.toUpperCase()] : undefined
    parts.push({
      kind,
      ...(rs ? { amountPerShare: value } : { percent: value }),
      ...(sequence ? { sequence } : {})
    })
  }
  if (parts.length === 0) {
    // A right with its terms in words: "22.45% AT PAR (R)", "70% AT A PREMIUM OF Rs.2/= PER SHARE (R)".
    const right = /([\dO][\dO,.]*)\s*%\s*AT\s[^()]*\(\s*R\s*\)/i.exec(raw)
    const value = parseNumber(right?.[1])
    if (value !== undefined) parts.push({ kind: "right", percent: value })
  }
  return parts
}

export type PeriodType = "YR" | "HYR" | "IQ" | "IIQ" | "IIIQ"
const periodTypes: ReadonlyArray<PeriodType> = ["YR", "HYR", "IQ", "IIQ", "IIIQ"]

/** "30/06/2026(HYR)" → the period end and its type. */
export const parseFinancialResult = (raw: string): { periodEnd?: string; periodType?: PeriodType } => {
  const m = /([\dO]{1,2}\/[\dO]{1,2}\/[\dO]{4})\s*\(\s*(YR|HYR|IQ|IIQ|IIIQ)\s*\)/i.exec(raw)
  if (!m) {
    const d = parseDate(raw.trim())
    return d ? { periodEnd: d } : {}
  }
  const periodEnd = parseDate(m[1])
  const periodType = periodTypes.find((t) => t === m[2]!.toUpperCase())
  return { ...(periodEnd ? { periodEnd } : {}), ...(periodType ? { periodType } : {}) }
}

/** Cash per share in rupees from a part, given the face value in force. */
export const cashPerShare = (part: PayoutPart, faceValue: number): number | undefined => {
  if (part.kind !== "cash") return undefined
  if (part.amountPerShare !== undefined) return part.amountPerShare
  if (part.percent !== undefined) return Math.round(part.percent * faceValue) / 100
  return undefined
}
