/**
 * A short-lived cache for read results. Market data changes only when data is
 * ingested, so repeating an identical read within a few seconds returns the
 * same answer; caching it keeps hot symbols off the database. Failures are not
 * cached. Entries expire after `ttlMs`; the map is bounded.
 */
import { Clock, Effect } from "effect"

export const makeReadCache = (ttlMs: number, maxEntries = 2_000) => {
  const entries = new Map<string, { at: number; value: unknown }>()
  return <A, E, R>(key: string, effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.flatMap(Clock.currentTimeMillis, (now) => {
      const hit = entries.get(key)
      if (hit !== undefined && now - hit.at < ttlMs) return Effect.succeed(hit.value as A)
      return Effect.tap(effect, (value) =>
        Effect.sync(() => {
          if (entries.size >= maxEntries) entries.clear()
          entries.set(key, { at: now, value })
        }))
    })
}
