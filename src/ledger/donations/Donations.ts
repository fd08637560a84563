/**
 * Donation records: each is a `DonationRecorded` event, created pending (no
 * payment is taken here), in a stream of its own, `donation-<donation id>`,
 * so concurrent donations never contend for one stream's next version. A
 * conflict (a new stream's version 1 taken, or a deadlock the store reports)
 * is tried again under a new id, twice at most, then answers 409.
 *
 * `createIn` records a donation in a portfolio's own stream instead
 * (POST /v1/me/donations), so its tax-year statement lists it: the event
 * moves no position and is appended at the stream's head.
 */
import { Context, Effect, Layer, Schedule } from "effect"
import type { SqlError } from "effect/sql"
import { randomUUID } from "node:crypto"
import { InvalidRequest, type SourceUnavailable, WriteConflict } from "../../../domain/Errors.ts"
import { hasPlaces } from "../../../domain/ledger/Money.ts"
import type { Donation } from "../../../domain/ledger/Schemas.ts"
import { storeUnavailable } from "../../db/Rows.ts"
import { type ConcurrencyConflict, EMPTY_HEAD, type EventMetadata, EventStore } from "../events/EventStore.ts"

/** The stream of the donations recorded before each had its own (read and verified, never appended to). */
export const LEGACY_DONATIONS_STREAM = "donations"
/** The stream a donation is recorded in. */
export const donationStream = (donationId: string) => `donation-${donationId}`
const MAX = 10_000_000
const ATTEMPTS = 3

type Body = { amount: number; currency?: "PKR" | undefined; note?: string | undefined }

export class Donations extends Context.Service<Donations, {
  readonly create: (
    body: Body,
    requestId?: string
  ) => Effect.Effect<typeof Donation.Type, InvalidRequest | WriteConflict | SourceUnavailable>
  /** A donation recorded as an event of `streamId` (a portfolio's stream). */
  readonly createIn: (
    streamId: string,
    body: Body,
    metadata: EventMetadata
  ) => Effect.Effect<typeof Donation.Type, InvalidRequest | WriteConflict | SourceUnavailable>
}>()("psx/ledger/Donations") {
  static readonly layer = Layer.effect(
    Donations,
    Effect.gen(function*() {
      const store = yield* EventStore

      /** One donation appended as version 1 of a new stream. */
      const appendNew = (amount: number, note: string | undefined, requestId: string | undefined) =>
        Effect.suspend(() => {
          const id = randomUUID()
          const event = {
            type: "DonationRecorded" as const,
            donation_id: id,
            amount,
            currency: "PKR" as const,
            ...(note ? { note } : {}),
            status: "pending" as const
          }
          return Effect.map(
            store.append(donationStream(id), EMPTY_HEAD, [event], { request_id: requestId }),
            (r) => ({ id, stored: r.appended[0]! })
          )
        })

      /** The amount and note of a valid body, or the 400. */
      const checked = (body: Body) =>
        Effect.gen(function*() {
          if (!(body.amount > 0) || body.amount > MAX) {
            return yield* new InvalidRequest({
              message: `body field \`amount\`: rupees above 0 and at most ${MAX.toLocaleString("en")}`
            })
          }
          if (!hasPlaces(body.amount, 2)) {
            return yield* new InvalidRequest({ message: "body field `amount`: at most two decimal places (paisa)" })
          }
          return { amount: body.amount, note: body.note?.trim() || undefined }
        })

      const answer = (
        id: string,
        amount: number,
        note: string | undefined,
        stored: { recorded_at: string; event_id: string }
      ) => ({
        id,
        amount,
        currency: "PKR" as const,
        ...(note ? { note } : {}),
        status: "pending" as const,
        created_at: stored.recorded_at,
        event_id: stored.event_id
      })

      const conflictToWrite = <A, R>(effect: Effect.Effect<A, ConcurrencyConflict | SqlError.SqlError, R>) =>
        effect.pipe(
          Effect.catchTag("SqlError", (e) => storeUnavailable(Effect.fail(e))),
          Effect.catchTag(
            "ConcurrencyConflict",
            () =>
              Effect.fail(
                new WriteConflict({
                  message: "the donation met a conflicting write and was not recorded: send it again"
                })
              )
          )
        )

      const create = Effect.fn("Donations.create")(function*(body: Body, requestId?: string) {
        const { amount, note } = yield* checked(body)
        const { id, stored } = yield* conflictToWrite(
          appendNew(amount, note, requestId).pipe(
            Effect.retry({ while: (e) => e._tag === "ConcurrencyConflict", times: ATTEMPTS - 1 })
          )
        )
        return answer(id, amount, note, stored)
      })

      const createIn = Effect.fn("Donations.createIn")(
        function*(streamId: string, body: Body, metadata: EventMetadata) {
          const { amount, note } = yield* checked(body)
          const id = randomUUID()
          const event = {
            type: "DonationRecorded" as const,
            donation_id: id,
            amount,
            currency: "PKR" as const,
            ...(note ? { note } : {}),
            status: "pending" as const
          }
          const appendAtHead = Effect.flatMap(
            store.head(streamId),
            (head) => store.append(streamId, head, [event], metadata)
          )
          const { appended } = yield* conflictToWrite(appendAtHead.pipe(
            Effect.retry({
              while: (e) => e._tag === "ConcurrencyConflict",
              times: 50,
              schedule: Schedule.jittered(Schedule.spaced("2 millis"))
            })
          ))
          return answer(id, amount, note, appended[0]!)
        }
      )
      return { create, createIn }
    })
  )
}
