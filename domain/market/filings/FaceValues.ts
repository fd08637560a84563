/**
 * Face values from sourced records only, each with the date it holds from.
 * Cash dividends are percent of face value, so a rupee amount needs the
 * face value in force on the payout's ex day; with no record here the face
 * value is unknown and amounts stay absent (never an assumed Rs 10).
 */
export interface FaceValueRecord {
  readonly symbol: string
  readonly rupees: number
  /** First date it holds (the first session on that face value); undefined: before `until`, start not sourced. */
  readonly from?: string
  /** Last date it holds. */
  readonly until?: string
  readonly source: string
  /** When the source was published (YYYY, YYYY-MM or YYYY-MM-DD): the record is not known before its end. */
  readonly published: string
}

export const faceValueRecords: ReadonlyArray<FaceValueRecord> = [
  {
    symbol: "LUCK",
    rupees: 2,
    from: "2025-04-28",
    source:
      "Profit (Pakistan Today), 15 Apr 2025: LUCK suspended 21–25 Apr 2025 to change its face value from Rs 10 to Rs 2 " +
      "(5-for-1 sub-division), trading resuming 28 Apr 2025 at one-fifth of the 18 Apr close",
    published: "2025-04-15"
  },
  {
    symbol: "LUCK",
    rupees: 10,
    until: "2025-04-18",
    source:
      "Business Recorder, Feb 2025: LUCK's notice to PSX of 20 Feb 2025 ('293,000,000 ordinary shares of Rs10/- each')",
    published: "2025-02"
  },
  {
    symbol: "MEBL",
    rupees: 10,
    source:
      "Mettis Global, 6 Aug 2026 (the pack's news, news-8b2fb0bc): 'Meezan Bank H1 profit rises 3%, declares Rs8 dividend', " +
      "the payout PSX lists as '80(ii) (D)' (Rs 8 = 80% of Rs 10); Pakistan Company News, 2019: final cash dividend " +
      "'Rs. 2/- per share i.e. 20%'. No sub-division of MEBL is recorded between them (no restated eod series)",
    published: "2026-08-06"
  },
  {
    symbol: "MEBL",
    rupees: 10,
    source: "Pakistan Company News, 2019: final cash dividend 'Rs. 2/- per share i.e. 20%' (Rs 2 = 20% of Rs 10)",
    published: "2019"
  }
]

/** The last day of a YYYY, YYYY-MM or YYYY-MM-DD period (a day of 31 is late enough for a comparison of dates). */
const periodEnd = (period: string) =>
  period.length === 4 ? `${period}-12-31` : period.length === 7 ? `${period}-31` : period

/** The sourced face value of `symbol` on `date`, from a source published by `knownBy` (a date; default: any), or undefined. */
export const faceValueOn = (symbol: string, date: string, knownBy?: string): FaceValueRecord | undefined =>
  faceValueRecords.find((r) =>
    r.symbol === symbol && (r.from === undefined || date >= r.from) && (r.until === undefined || date <= r.until) &&
    (knownBy === undefined || periodEnd(r.published) <= knownBy)
  )
