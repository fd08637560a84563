/**
 * Encoded answers of the GET screener (served by the guard through
 * EncodedAnswers): a screen is a pure function of the read model's snapshot,
 * the Karachi day (trailing yields) and the cursor day, so the bytes of a
 * screener URL are kept with the snapshot until one of those turns over.
 *
 * Only URLs whose query decodes (no repeated parameter, every field known
 * and well typed) are answered here, at most `MAX_SCREENS` distinct ones per
 * snapshot and each under `MAX_QUERY` characters; anything else goes through
 * the HttpApi pipeline, which answers the same bytes (or the 400).
 */
import { Effect, Result, Schema } from "effect"
import { ScreenerPage } from "../../../domain/market/AnalyticsSchemas.ts"
import { decodeScreenQuery } from "../../../domain/market/ScreenRequest.ts"
import type { Analytics } from "../analytics/Analytics.ts"
import type { EncodedAnswer, ReadModelState } from "./ReadModel.ts"

export const SCREENER_PREFIX = "/v1/screener?"
const MAX_SCREENS = 1_000
const MAX_QUERY = 2_000
const utf8 = new TextEncoder()

/** The screener's answers for `analytics`; `until` is when answers made at `now` turn over. */
export const makeScreenerAnswers = (analytics: typeof Analytics.Service) => {
  const toJson = Schema.encodeSync(ScreenerPage)
  const counts = new WeakMap<ReadModelState, number>()
  return (url: string, state: ReadModelState, now: number, until: number): Effect.Effect<EncodedAnswer | undefined> => {
    const hit = state.answers.get(url)
    if (hit !== undefined && now < hit.validUntil) return Effect.succeed(hit)
    const count = counts.get(state) ?? 0
    const query = url.slice(SCREENER_PREFIX.length)
    if (count >= MAX_SCREENS || query.length > MAX_QUERY) return Effect.succeed(undefined)
    const params = [...new URLSearchParams(query)]
    const record = Object.fromEntries(params)
    if (Object.keys(record).length !== params.length) return Effect.succeed(undefined)
    const request = decodeScreenQuery(record)
    if (Result.isFailure(request)) return Effect.succeed(undefined)
    return analytics.screen(request.success).pipe(
      Effect.map((page): EncodedAnswer => {
        const made = { status: 200 as const, body: utf8.encode(JSON.stringify(toJson(page))), validUntil: until }
        if (!state.answers.has(url)) counts.set(state, count + 1)
        state.answers.set(url, made)
        return made
      }),
      Effect.catch(() => Effect.succeed(undefined))
    )
  }
}
