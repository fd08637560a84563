/**
 * Warnings a trade's price raises (the trade is still recorded, with them as
 * its `flags`): outside that day's circuit-breaker band, from the previous
 * trading day's as-traded close (or the check unknown without that close);
 * and more than 50% from the day's recorded close on any basis, naming the
 * close, its basis and the likely restatement (a source that restated its
 * series for a split shows prices divided by the split's ratio).
 */

/** A recorded close of the trade's day, and what basis its series is on. */
export interface DayClose {
  readonly date: string
  readonly close: number
  /** as_traded: the exchange's prices of the day; served: the default series, with the source's restatement verdict. */
  readonly series: "as_traded" | "served"
  readonly restated: boolean | "unknown"
  /** The restated series' close ÷ the as-traded close, when restated (0.2 for a 5-for-1 split). */
  readonly factor?: number | undefined
}

/** How far from the close a price may be, on any basis, before it is flagged. */
const MAX_DEVIATION = 0.5

const rupees = (n: number) => n.toLocaleString("en", { maximumFractionDigits: 2 })

/** A restatement factor as the split it undoes: 0.2 → "5:1"; 2 → "1:2". */
const ratioOf = (factor: number) => (factor < 1 ? `${rupees(1 / factor)}:1` : `1:${rupees(factor)}`)

const basisOf = (c: DayClose) =>
  c.series === "as_traded" || c.restated === false
    ? "as traded"
    : c.restated === true && c.factor !== undefined
    ? `restated by the source, ${c.factor}× the as-traded prices`
    : "basis unknown: the source's series may be restated"

const likelyOf = (c: DayClose, price: number) => {
  if (c.restated === true && c.factor !== undefined && c.series === "served") {
    const asTraded = Math.round((c.close / c.factor) * 100) / 100
    return `likely restatement: the series is restated ${ratioOf(c.factor)} for a split; as traded that close is ${
      rupees(asTraded)
    }, ` +
      `so the price is ${rupees(price / asTraded)}× it`
  }
  if (c.restated === "unknown" && c.series === "served") {
    return "likely restatement: unknown; a split after that day would restate the series by its ratio"
  }
  return "no restatement of the series is recorded: check the price (a split or bonus changes the per-share price from its ex day)"
}

/** The 50% check against each recorded close of the day. */
const deviationFlags = (price: number, symbol: string, closes: ReadonlyArray<DayClose>) =>
  closes.flatMap((c) =>
    Math.abs(price / c.close - 1) <= MAX_DEVIATION ? [] : [
      `price ${rupees(price)} is ${rupees(price / c.close)}× ${symbol}'s recorded close of ${
        rupees(c.close)
      } on ${c.date} ` +
      `(${basisOf(c)}); ${likelyOf(c, price)}`
    ]
  ).slice(0, 1)

/** The flags of a trade at `price` on `date`. */
export const priceFlags = (
  price: number,
  symbol: string,
  date: string,
  circuit: { readonly lower: number; readonly upper: number } | undefined,
  closes: ReadonlyArray<DayClose>
): ReadonlyArray<string> => {
  const band = circuit === undefined
    ? [`circuit-breaker check unknown: no as-traded close of ${symbol} is recorded for the previous trading day`]
    : price < circuit.lower - 0.005 || price > circuit.upper + 0.005
    ? [`price ${price} is outside ${date}'s circuit-breaker bounds ${circuit.lower}–${circuit.upper}`]
    : []
  return [...band, ...deviationFlags(price, symbol, closes)]
}
