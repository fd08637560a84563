/**
 * Recording entitlements as they fall due, for the portfolios that opted in
 * (`auto_record_entitlements`). An entitlement falls due on its credit date:
 * the payout's payment date is not in the market's records, so it is the end
 * of the book closure, the date accept records the event on. It is recorded
 * once that date has come (Asia/Karachi), if it is on or after the day
 * auto-recording was turned on (earlier ones stay in the inbox for accept),
 * still `due` (not recorded by hand, not dismissed), and recordable (a cash
 * dividend with a known face value and a recorded filer status, or a bonus).
 */
import { Config, Context, Duration, Effect, Layer, Schedule, Schema } from "effect"
import type { SourceUnavailable } from "../../../domain/Errors.ts"
import type { Principal } from "../../../domain/ledger/Grants.ts"
import type { Settings } from "../../../domain/ledger/SettingsSchemas.ts"
import { Entitlements } from "../entitlements/Entitlements.ts"
import { type OptedIn, PortfolioSettings, type SettingsRow } from "./Settings.ts"

/** What the events' `source` adds after the payout. */
export const AUTO_SOURCE = "recorded automatically (the portfolio's auto_record_entitlements setting)"
const PAGE = 200

const every = Config.schema(Schema.Finite.check(Schema.isGreaterThan(0)), "PSX_AUTO_RECORD_SWEEP_MINUTES").pipe(
  Config.withDefault(15)
)

const NOTES = [
  "Auto-recording records each entitlement as it falls due: on its credit date (the end of the book closure; the payment " +
  "date is not recorded), from the day it was turned on, through the same path as accept. A background sweep runs every " +
  "15 minutes by default; reads never record. Dismissed entitlements, rights, and dividends without a known face value or " +
  "a recorded filer status are not recorded automatically."
]

const principalOf = (p: OptedIn): Principal => ({
  userId: p.user_id,
  keyId: p.key_id,
  kind: "key",
  grants: ["portfolio:write"]
})

const answerOf = (row: SettingsRow) => ({
  auto_record_entitlements: row.auto_record_entitlements,
  ...(row.auto_record_since !== undefined ? { auto_record_since: row.auto_record_since } : {}),
  ...(row.updated_at !== undefined ? { updated_at: row.updated_at } : {}),
  notes: NOTES
})

/**
 * When: a background sweep every `PSX_AUTO_RECORD_SWEEP_MINUTES` (default 15)
 * over every portfolio that opted in, and once for the portfolio when it is
 * turned on (in the PUT). Reads never write: a GET answers what is recorded.
 *
 * Each event goes through Entitlements' accept path (Portfolio.record and the
 * decider, Idempotency-Key `entitlement-<id>`), so it is an ordinary event
 * whose metadata names its payout and dataset (`source`), the entitlement
 * (`causation_id`) and, as actor, the credential that turned the setting on.
 * The key makes it once-only however many sweeps race, in one process or
 * many on one PostgreSQL. A portfolio whose sweep fails is logged and tried
 * again by the next sweep.
 *
 * Owns the sweep. Does not own the setting (PortfolioSettings) or the rules
 * (Entitlements).
 */
export class AutoRecord extends Context.Service<AutoRecord, {
  /** GET /v1/me/settings. */
  readonly settings: (principal: Principal) => Effect.Effect<typeof Settings.Type, SourceUnavailable>
  /** PUT /v1/me/settings: sets auto-recording, and when on records what is already falling due (a failure there is logged). */
  readonly update: (principal: Principal, on: boolean) => Effect.Effect<typeof Settings.Type, SourceUnavailable>
  /** One sweep over every portfolio that opted in: the events it recorded. */
  readonly sweep: Effect.Effect<number, SourceUnavailable>
}>()("psx/ledger/AutoRecord") {
  static readonly layerWith = (options: { readonly every: Duration.Duration }) =>
    Layer.effect(
      AutoRecord,
      Effect.gen(function*() {
        const settings = yield* PortfolioSettings
        const entitlements = yield* Entitlements

        const recordFor = (p: OptedIn) =>
          Effect.tap(entitlements.recordDue(principalOf(p), p.since, AUTO_SOURCE), (r) =>
            r.recorded.some((x) =>
                x.recorded_now
              )
              ? Effect.logInfo({
                msg: "entitlements recorded automatically",
                user: p.user_id,
                count: r.recorded.filter((x) => x.recorded_now).length
              })
              : Effect.void)

        const sweep = Effect.gen(function*() {
          let after = "", count = 0
          while (true) {
            const page = yield* settings.optedIn(after, PAGE)
            for (const p of page) {
              const r = yield* recordFor(p).pipe(
                Effect.catchCause((cause) =>
                  Effect.as(
                    Effect.logWarning({
                      msg: "auto-recording failed; the next sweep tries again",
                      user: p.user_id,
                      cause
                    }),
                    undefined
                  )
                )
              )
              count += r?.recorded.filter((x) => x.recorded_now).length ?? 0
            }
            if (page.length < PAGE) return count
            after = page[page.length - 1]!.user_id
          }
        }).pipe(Effect.withSpan("AutoRecord.sweep"))

        const get = Effect.fn("AutoRecord.settings")(function*(principal: Principal) {
          return answerOf(yield* settings.get(principal.userId))
        })

        const update = Effect.fn("AutoRecord.update")(function*(principal: Principal, on: boolean) {
          const row = yield* settings.setAutoRecord(principal.userId, principal.keyId, on)
          if (!row.auto_record_entitlements || row.auto_record_since === undefined) return answerOf(row)
          const done = yield* Effect.result(
            recordFor({
              user_id: principal.userId,
              since: row.auto_record_since,
              key_id: row.auto_record_key_id ?? principal.keyId
            })
          )
          if (done._tag === "Failure") {
            yield* Effect.logWarning({
              msg: "auto-recording on opt-in failed; the sweep tries again",
              user: principal.userId,
              error: done.failure.message
            })
            return answerOf(row)
          }
          return {
            ...answerOf(row),
            recorded_now: done.success.recorded.filter((x) => x.recorded_now).map((x) => ({
              id: x.id,
              event_id: x.event_id!
            })),
            skipped: done.success.skipped
          }
        })

        yield* Effect.forkScoped(
          sweep.pipe(
            Effect.catchCause((cause) => Effect.logWarning({ msg: "auto-record sweep failed", cause })),
            Effect.repeat(Schedule.spaced(options.every)),
            Effect.delay(options.every)
          )
        )
        return { settings: get, update, sweep }
      })
    )

  /** The sweep's pause from the environment. */
  static readonly layer = Layer.unwrap(Effect.map(
    Effect.orDie(Effect.gen(function*() {
      return yield* every
    })),
    (minutes) => AutoRecord.layerWith({ every: Duration.minutes(minutes) })
  ))
}
