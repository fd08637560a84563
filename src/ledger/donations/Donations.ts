/**
 * Donation records: each is a `DonationRecorded` event in the `donations`
 * stream, created pending (no payment is taken here).
 */
import { Context, Effect, Layer, Schedule } from "effect"
import { InvalidRequest } from "../../../domain/Errors.ts"
import { hasPlaces } from "../../../domain/ledger/Money.ts"
import type { Donation } from "../../../domain/ledger/Schemas.ts"
import { storeUnavailable } from "../../db/Rows.ts"
import { ConcurrencyConflict, EventStore } from "../events/EventStore.ts"
import { randomUUID } from "node:crypto"
import type { SourceUnavailable } from "../../../domain/Errors.ts"

export const DONATIONS_STREAM = "donations"
const MAX = 10_000_000

export class Donations extends Context.Service<Donations, {
  readonly create: (body: { amount: number; currency?: "PKR" | undefined; note?: string | undefined }, requestId?: string) => Effect.Effect<
    typeof Donation.Type,
    InvalidRequest | SourceUnavailable
  >
}>()("psx/ledger/Donations") {
  static readonly layer = Layer.effect(
    Donations,
    Effect.gen(function*() {
      const store = yield* EventStore
      const create = Effect.fn("Donations.create")(function*(
        body: { amount: number; currency?: "PKR" | undefined; note?: string | undefined },
        requestId?: string
      ) {
        if (!(body.amount > 0) || body.amount > MAX) {
          return yield* new InvalidRequest({ message: `body field \`amount\`: rupees above 0 and at most ${MAX.toLocaleString("en")}` })
        }
        if (!hasPlaces(body.amount, 2)) {
          return yield* new InvalidRequest({ message: "body field `amount`: at most two decimal places (paisa)" })
        }
        const note = body.note?.trim()
        const id = randomUUID()
        const appended = yield* Effect.gen(function*() {
          const head = yield* store.head(DONATIONS_STREAM)
          return yield* store.append(DONATIONS_STREAM, head, [{
            type: "DonationRecorded",
            donation_id: id,
            amount: body.amount,
            currency: "PKR",
            ...(note ? { note } : {}),
            status: "pending"
          }], { request_id: requestId })
        }).pipe(
          Effect.retry({ while: (e) => e instanceof ConcurrencyConflict, times: 100, schedule: Schedule.jittered(Schedule.spaced("2 millis")) }),
          Effect.catchTag("ConcurrencyConflict", (e) => Effect.die(e)),
          storeUnavailable
        )
        const e = appended.appended[0]!
        return {
          id,
          amount: body.amount,
          currency: "PKR" as const,
          ...(note ? { note } : {}),
          status: "pending" as const,
          created_at: e.recorded_at,
          event_id: e.event_id
        }
      })
      return { create }
    })
  )
}
