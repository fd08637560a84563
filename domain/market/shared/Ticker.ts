/**
 * Ticker symbols: upper-case letters and digits, with '-' and '.' inside
 * (rights, TFCs), at most 16 characters. Lower case is normalised; anything
 * else is INVALID_SYMBOL (400), while a well-formed unknown ticker is
 * DATA_NOT_FOUND (404) — the store decides that, not the syntax.
 */
import { Effect, Schema } from "effect"
import { InvalidSymbol } from "../../Errors.ts"

export const TICKER_MAX = 16
const pattern = /^[A-Z0-9][A-Z0-9.\-]{0,15}$/u

export const Ticker = Schema.String.pipe(
  Schema.check(Schema.isPattern(pattern)),
  Schema.brand("Ticker")
).annotate({ description: "A PSX ticker: A-Z, 0-9, '-' and '.', at most 16 characters", examples: ["HUBC" as any] })
export type Ticker = typeof Ticker.Type

/** Normalises (trim, upper case) and validates a symbol from a path or query. */
export const parseTicker = (raw: string): Effect.Effect<Ticker, InvalidSymbol> => {
  const s = raw.trim().toUpperCase()
  if (s.length === 0 || s.length > TICKER_MAX || !pattern.test(s)) {
    return Effect.fail(
      new InvalidSymbol({
        message: `'${
          raw.length > 40 ? raw.slice(0, 40) + "…" : raw
        }' is not a ticker: use A-Z, 0-9, '-' or '.', at most ${TICKER_MAX} characters`,
        ...(raw.length <= 40 ? { symbol: raw } : {})
      })
    )
  }
  return Effect.succeed(s as Ticker)
}
