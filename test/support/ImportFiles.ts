/** Large transaction files for import tests: one-share buys spread over the trading days of mid-2021 to 2025. */
import { addDays, isTradingDay } from "../../domain/market/calendar/Calendar.ts"

const HEADER = "trade_date,kind,symbol,quantity,price,reverses,reason,event_id"

/** `n` one-share buys of `symbol` at Rs 100, spread over the trading days of 2021-06-01 to 2025-12-31, oldest first. */
export const buys = (symbol: string, n: number) => {
  const days: Array<string> = []
  for (let d = "2021-06-01"; d <= "2025-12-31"; d = addDays(d, 1)) if (isTradingDay(d)) days.push(d)
  return Array.from({ length: n }, (_, i) => `${days[Math.floor((i * days.length) / n)]},buy,${symbol},1,100,,,`)
}

/** The file: the header, then the lines, each ended by CRLF. */
export const csvOf = (lines: ReadonlyArray<string>) => [HEADER, ...lines].map((l) => `${l}\r\n`).join("")
