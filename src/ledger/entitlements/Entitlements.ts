/**
 * A portfolio's entitlements (GET /v1/me/entitlements): the recorded payouts
 * of the symbols in its ledger, with what the position at each last buy date
 * is owed (domain/ledger/Entitlements.ts), computed on read; accepting one
 * records its dividend or bonus through the ordinary write path
 * (Portfolio.record and the decider), and dismissing one hides it.
 *
 * Owns: the table `entitlement_dismissals`. Does not own: the payouts (asks
 * MarketFacts), the events (Portfolio), the rules (domain/ledger).
 */
import { Clock, Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import {
  DataNotFound,
  type IdempotencyMismatch,
  InvalidRequest,
  type InvalidSymbol,
  type SourceUnavailable
} from "../../../domain/Errors.ts"
import type { Command } from "../../../domain/ledger/Decider.ts"
import { type Entitlement, entitlementsOf } from "../../../domain/ledger/Entitlements.ts"
import type { EntitlementAction, Entitlements as EntitlementList } from "../../../domain/ledger/EntitlementSchemas.ts"
import { karachiDate } from "../../../domain/market/calendar/Calendar.ts"
import { storeUnavailable } from "../../db/Rows.ts"
import type { Principal } from "../accounts/Keys.ts"
import { MarketFacts } from "../portfolio/MarketFacts.ts"
import { Portfolio } from "../portfolio/Portfolio.ts"

/** What every list says about what it leaves out. */
const LIST_NOTES = [
  "Splits and consolidations are not listed: the market holds no dated record of them (record one with kind split).",
  "Right shares are offered, not credited: subscribing is a buy (record it with kind buy); accept answers 400 for a right.",
  "Amounts are computed on read from the ledger's position at each last buy date, so a backdated trade changes them."
]

type WriteError = InvalidRequest | InvalidSymbol | DataNotFound | IdempotencyMismatch | SourceUnavailable

/** The dividend or bonus command that records an entitlement, or why it cannot be recorded. */
const commandOf = (e: Entitlement): Command | string => {
  const base = { symbol: e.symbol, trade_date: e.credit_date, book_closure_from: e.book_closure_from }
  if (e.kind === "right") return "a right is offered, not credited: record the subscribed shares with kind buy"
  if (e.kind === "bonus") {
    return e.percent !== undefined
      ? { kind: "bonus", ...base, percent: e.percent }
      : "the payout states no bonus percent"
  }
  return e.cash_per_share !== undefined
    ? { kind: "dividend", ...base, per_share: e.cash_per_share }
    : "the cash per share is unknown (no face value recorded): record it with kind dividend and the warrant's gross_amount"
}

export class Entitlements extends Context.Service<Entitlements, {
  readonly list: (principal: Principal, limit: number) => Effect.Effect<typeof EntitlementList.Type, SourceUnavailable>
  readonly accept: (
    principal: Principal,
    id: string,
    requestId: string | undefined
  ) => Effect.Effect<typeof EntitlementAction.Type, WriteError>
  readonly dismiss: (
    principal: Principal,
    id: string
  ) => Effect.Effect<typeof EntitlementAction.Type, DataNotFound | SourceUnavailable>
  /**
   * Records, through accept's path, every entitlement still `due` whose credit date is from `since` to today
   * (entitlements falling due while auto-recording is on); `how` is added to the event's `source`. What could not
   * be recorded (a right, an unknown face value, no filer status, a refused write) is skipped with its reason.
   */
  readonly recordDue: (principal: Principal, since: string, how: string) => Effect.Effect<{
    readonly recorded: ReadonlyArray<typeof EntitlementAction.Type>
    readonly skipped: ReadonlyArray<{ readonly id: string; readonly reason: string }>
  }, SourceUnavailable>
}>()("psx/ledger/Entitlements") {
  static readonly layer = Layer.effect(
    Entitlements,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const portfolio = yield* Portfolio
      const market = yield* MarketFacts

      const dismissedOf = (userId: string) =>
        Effect.map(
          sql<{ entitlement_id: string }>`SELECT entitlement_id FROM entitlement_dismissals WHERE user_id = ${userId}`,
          (rows) => new Set(rows.map((r) => r.entitlement_id))
        ).pipe(storeUnavailable)

      /** Every entitlement of the portfolio, newest book closure first, with the payouts' sources. */
      const all = (principal: Principal) =>
        Effect.gen(function*() {
          const today = karachiDate(yield* Clock.currentTimeMillis)
          const entries = yield* portfolio.events(principal)
          const symbols = [
            ...new Set(entries.flatMap((e) => ("symbol" in e.event && e.event.symbol !== "" ? [e.event.symbol] : [])))
          ]
          const facts = yield* market.payouts(symbols)
          const items = entitlementsOf(facts.payouts, entries, today, yield* dismissedOf(principal.userId))
          return { today, items, sources: facts.sources }
        })

      const find = (principal: Principal, id: string) =>
        Effect.flatMap(all(principal), ({ items }) => {
          const found = items.find((e) => e.id === id)
          return found === undefined
            ? Effect.fail(new DataNotFound({ message: `no entitlement ${id} in this portfolio` }))
            : Effect.succeed(found)
        })

      const list = Effect.fn("Entitlements.list")(function*(principal: Principal, limit: number) {
        const { today, items, sources } = yield* all(principal)
        const shown = items.slice(0, limit)
        const used = new Set(shown.map((e) => e.dataset))
        return {
          as_of: today,
          total: items.length,
          items: shown,
          sources: sources.filter((s) => used.has(s.dataset)),
          notes: LIST_NOTES
        }
      })

      /** Records an entitlement's event through the ordinary write path, its payout named in the metadata. */
      const recordOne = (principal: Principal, e: Entitlement, requestId: string | undefined, how?: string) =>
        Effect.gen(function*() {
          const command = commandOf(e)
          if (typeof command === "string") {
            return yield* new InvalidRequest({ message: `entitlement ${e.id}: ${command}`, symbol: e.symbol })
          }
          const result = yield* portfolio.record(principal, command, {
            idempotencyKey: `entitlement-${e.id}`,
            requestId,
            causationId: e.id,
            source:
              `payout ${e.payout_id} (${e.details}, book closure ${e.book_closure_from}) from dataset ${e.dataset}` +
              (how === undefined ? "" : `; ${how}`)
          })
          return {
            id: e.id,
            state: "recorded" as const,
            event_id: result.event.event_id,
            recorded_now: !result.replayed
          }
        })

      const accept = Effect.fn("Entitlements.accept")(
        function*(principal: Principal, id: string, requestId: string | undefined) {
          const e = yield* find(principal, id)
          if (e.state === "recorded") {
            return { id, state: "recorded" as const, event_id: e.recorded_event_id!, recorded_now: false }
          }
          return yield* recordOne(principal, e, requestId)
        }
      )

      const recordDue = Effect.fn("Entitlements.recordDue")(
        function*(principal: Principal, since: string, how: string) {
          const { today, items } = yield* all(principal)
          const falling = items.filter((e) => e.state === "due" && e.credit_date >= since && e.credit_date <= today)
          const recorded: Array<typeof EntitlementAction.Type> = []
          const skipped: Array<{ readonly id: string; readonly reason: string }> = []
          for (const e of falling) {
            const command = commandOf(e)
            if (typeof command === "string") {
              skipped.push({ id: e.id, reason: command })
              continue
            }
            const done = yield* Effect.result(recordOne(principal, e, undefined, how))
            if (done._tag === "Success") recorded.push(done.success)
            else skipped.push({ id: e.id, reason: done.failure.message })
          }
          return { recorded, skipped }
        }
      )

      const dismiss = Effect.fn("Entitlements.dismiss")(function*(principal: Principal, id: string) {
        const e = yield* find(principal, id)
        yield* sql`INSERT INTO entitlement_dismissals (user_id, entitlement_id) VALUES (${principal.userId}, ${id})
          ON CONFLICT (user_id, entitlement_id) DO NOTHING`.pipe(storeUnavailable)
        return { id, state: e.state === "recorded" ? "recorded" as const : "dismissed" as const }
      })

      return { list, accept, dismiss, recordDue }
    })
  )
}
