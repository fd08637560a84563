/**
 * When the shares of a position were acquired, for holding periods: lots
 * dated first in, first out. Only dates and quantities: the cost stays the
 * replay's average cost (Replay.ts), so lots never carry money.
 *
 * A buy adds a lot on its trade date; a bonus adds its whole shares as a lot
 * on its credit date; a split rescales every lot (whole shares, the
 * remainder to the newest lot, so the lots always sum to the position); a
 * sale takes the oldest lots first. Pure.
 */
import { toDay } from "../Karachi.ts"

export interface Lot {
  readonly acquired: string
  readonly quantity: number
  readonly how: "buy" | "bonus"
}

/** Part of a lot a sale took, and for how many days it had been held (trade date to trade date). */
export interface SoldLot extends Lot {
  readonly days: number
}

/** Calendar days from `from` to `to`. */
export const daysBetween = (from: string, to: string) => toDay(to) - toDay(from)

export class LotBook {
  private readonly lots = new Map<string, Array<Lot>>()

  /** The lots of `symbol`, oldest first. */
  of(symbol: string): ReadonlyArray<Lot> {
    return this.lots.get(symbol) ?? []
  }

  add(symbol: string, lot: Lot) {
    if (lot.quantity <= 0) return
    const list = this.lots.get(symbol)
    if (list === undefined) this.lots.set(symbol, [lot])
    else list.push(lot)
  }

  /** Takes `quantity` shares oldest first; the parts taken, each with its days held on `date`. */
  take(symbol: string, quantity: number, date: string): ReadonlyArray<SoldLot> {
    const left = this.lots.get(symbol) ?? []
    const taken: Array<SoldLot> = []
    let want = quantity
    while (want > 0 && left.length > 0) {
      const lot = left[0]!
      const part = Math.min(lot.quantity, want)
      taken.push({ ...lot, quantity: part, days: daysBetween(lot.acquired, date) })
      want -= part
      if (part === lot.quantity) left.shift()
      else left[0] = { ...lot, quantity: lot.quantity - part }
    }
    return taken
  }

  /** Rescales the lots by numerator/denominator so they sum to `total` (the replay's whole shares after the split). */
  split(symbol: string, numerator: number, denominator: number, total: number) {
    const scaled = this.of(symbol).map((l) => ({ ...l, quantity: Math.floor((l.quantity * numerator) / denominator) }))
    const rest = total - scaled.reduce((s, l) => s + l.quantity, 0)
    if (scaled.length > 0 && rest !== 0) {
      scaled[scaled.length - 1] = { ...scaled.at(-1)!, quantity: scaled.at(-1)!.quantity + rest }
    }
    this.lots.set(symbol, scaled.filter((l) => l.quantity > 0))
  }
}
