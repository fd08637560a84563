/**
 * A user's portfolio: recording transactions (decide against fresh state,
 * append with the expected version, retry on conflict; Idempotency-Key
 * replays), and the read side (holdings valued at the delayed quote, the
 * portfolio with totals, cash flows and paged history).
 *
 * Owns: one stream per user (`portfolio-<user id>`). Does not own: market
 * data (asks Quotes and the store), credentials (Keys).
 */
import { Clock, Context, Effect, Layer, Schedule, Semaphore } from "effect"
import { SqlClient } from "effect/sql"
import {
  DataNotFound,
  IdempotencyMismatch,
  Internal,
  InvalidRequest,
  type InvalidSymbol,
  type SourceUnavailable
} from "../../domain/Errors.ts"
import { circuitBounds, isTradingDay, karachiDate, settlementDate } from "../../domain/market/Calendar.ts"
import { canonicalJson } from "../../domain/ledger/Chain.ts"
import type { Command, Position } from "../../domain/ledger/Decider.ts"
import type { StoredEvent } from "../../domain/ledger/Events.ts"
import type { EventRecord, Holding, RecordResult } from "../../domain/ledger/Schemas.ts"
import { Cursors } from "../http/Cursors.ts"
import { Filings } from "../market/Filings.ts"
import { Quotes } from "../market/Quotes.ts"
import { storeUnavailable } from "../db/Rows.ts"
import { ConcurrencyConflict, EventStore, sha256 } from "./EventStore.ts"
import type { Principal } from "./Keys.ts"
import { readHoldings } from "./Projection.ts"
import { LedgerWriter } from "./Writer.ts"

export const streamOf = (userId: string) => `portfolio-${userId}`

export const toEventRecord = (e: StoredEvent): typeof EventRecord.Type => ({
  event_id: e.event_id,
  position: e.position,
  version: e.version,
  type: e.event.type,
  effective_date: e.effective_date,
  recorded_at: e.recorded_at,
  payload: e.event,
  prev_hash: e.prev_hash,
  hash: e.hash
})

type RecordError = InvalidRequest | InvalidSymbol | DataNotFound | IdempotencyMismatch | SourceUnavailable

export interface RecordOptions {
  readonly idempotencyKey?: string | undefined
  readonly requestId?: string | undefined
}

export class Portfolio extends Context.Service<Portfolio, {
  readonly record: (principal: Principal, command: Command, options: RecordOptions) => Effect.Effect<typeof RecordResult.Type, RecordError>
  readonly holdings: (principal: Principal) => Effect.Effect<ReadonlyArray<typeof Holding.Type>, SourceUnavailable>
  readonly history: (principal: Principal, limit: number, cursor: string | undefined) => Effect.Effect<{
    readonly total: number
    readonly next_cursor: string | null
    readonly items: ReadonlyArray<typeof EventRecord.Type>
    readonly events: ReadonlyArray<StoredEvent>
  }, InvalidRequest | SourceUnavailable>
}>()("psx/ledger/Portfolio") {
  static readonly layer = Layer.effect(
    Portfolio,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const cursors = yield* Cursors
      const store = yield* EventStore
      const writer = yield* LedgerWriter
      const quotes = yield* Quotes
      const filings = yield* Filings
      // Writers to one stream in this process queue behind a striped lock, so
      // they rarely collide; the expected-version check in the database still
      // decides between processes (and is what a conflict retry relies on).
      const stripes = yield* Effect.forEach(Array.from({ length: 64 }), () => Semaphore.make(1))
      const stripeOf = (streamId: string) => {
        let h = 0
        for (let i = 0; i < streamId.length; i++) h = (h * 31 + streamId.charCodeAt(i)) | 0
        return stripes[Math.abs(h) % stripes.length]!
      }

      /** That day's circuit-breaker bounds, from the previous recorded close. */
      const circuitFor = (symbol: string, date: string) =>
        Effect.map(
          sql<{ close: string }>`
            SELECT close::text FROM daily_prices WHERE symbol = ${symbol} AND date < ${date}::date AND flag IS NULL
            ORDER BY date DESC, series = 'as_traded' DESC LIMIT 1`.pipe(storeUnavailable),
          (rows) => (rows[0] ? circuitBounds(Number(rows[0].close), date) : undefined)
        )

      const respond = (event: StoredEvent, positions: ReadonlyArray<Position>, replayed: boolean) =>
        Effect.gen(function*() {
          const symbol = event.event.type === "DonationRecorded" ? undefined : event.event.symbol
          const position = symbol ? positions.find((p) => p.symbol === symbol) : undefined
          return {
            event: toEventRecord(event),
            ...(position ? { holding: yield* value(position) } : {}),
            flags: event.event.type === "TradeRecorded" ? event.event.flags : [],
            replayed
          } satisfies typeof RecordResult.Type
        })

      /** An earlier request with this key: the original event (and today's holding), or 409 for another body. */
      const lookupIdempotent = (userId: string, key: string, requestHash: string) =>
        Effect.gen(function*() {
          const rows = yield* sql<{ request_hash: string; event_id: string }>`
            SELECT request_hash, event_id FROM idempotency WHERE user_id = ${userId} AND key = ${key}`.pipe(storeUnavailable)
          const hit = rows[0]
          if (hit === undefined) return undefined
          if (hit.request_hash !== requestHash) {
            return yield* new IdempotencyMismatch({ message: `Idempotency-Key ${key} was used before with a different body` })
          }
          const event = yield* store.readEvent(streamOf(userId), hit.event_id).pipe(storeUnavailable)
          if (event === undefined) return yield* Effect.die(new Error(`idempotency record points at a missing event ${hit.event_id}`))
          const positions = yield* readHoldings(streamOf(userId)).pipe(Effect.provideService(SqlClient.SqlClient, sql), storeUnavailable)
          return yield* respond(event, positions, true)
        })

      const attempt = (principal: Principal, command: Command, options: RecordOptions, requestHash: string) =>
        Effect.gen(function*() {
          const streamId = streamOf(principal.userId)
          if (options.idempotencyKey) {
            const previous = yield* lookupIdempotent(principal.userId, options.idempotencyKey, requestHash)
            if (previous) return previous
          }
          const now = yield* Clock.currentTimeMillis
          const circuit = command.kind === "buy" || command.kind === "sell"
            ? yield* circuitFor(command.symbol, command.trade_date)
            : undefined
          const written = yield* writer.write(
            streamId,
            command,
            { today: karachiDate(now), isTradingDay, settlementDate, circuit },
            { actor_key_id: principal.keyId, request_id: options.requestId, idempotency_key: options.idempotencyKey },
            options.idempotencyKey ? { user_id: principal.userId, key: options.idempotencyKey, request_hash: requestHash } : undefined
          )
          if (written._tag === "Rejected") return yield* new InvalidRequest(written.rejection)
          return yield* respond(written.event, written.positions, false)
        })

      const record = Effect.fn("Portfolio.record")(function*(principal: Principal, command: Command, options: RecordOptions) {
        const normalised: Command = command.kind === "reversal" ? command : { ...command, symbol: yield* filings.requireListed(command.symbol) }
        const requestHash = sha256(canonicalJson(normalised))
        return yield* stripeOf(streamOf(principal.userId)).withPermit(attempt(principal, normalised, options, requestHash)).pipe(
          // Decide against fresh state and try again when another writer got there first.
          Effect.retry({
            while: (e) => e instanceof ConcurrencyConflict,
            times: 1000,
            schedule: Schedule.jittered(Schedule.spaced("1 millis"))
          }),
          Effect.catchTag("ConcurrencyConflict", () =>
            Effect.die(new Internal({ message: "the portfolio was too busy to record this; try again" }))),
          Effect.catchTag("SqlError", (e) =>
            Effect.logError({ msg: "ledger write failed", error: e.message }).pipe(
              Effect.andThen(Effect.die(new Internal({ message: "the store refused the write; nothing was recorded" })))
            ))
        )
      })

      const value = (p: Position) =>
        Effect.gen(function*() {
          const quote = p.quantity > 0 ? yield* quotes.latest(p.symbol) : undefined
          const marketValue = quote ? Math.round(p.quantity * quote.price * 100) / 100 : undefined
          return {
            symbol: p.symbol,
            quantity: p.quantity,
            ...(p.quantity > 0 ? { average_cost: Math.round((p.cost / p.quantity) * 10_000) / 10_000 } : {}),
            cost: p.cost,
            ...(quote && marketValue !== undefined
              ? {
                market_price: quote.price,
                market_value: marketValue,
                unrealized_pnl: Math.round((marketValue - p.cost) * 100) / 100,
                quote_as_of: quote.as_of,
                quote_stale: quote.stale
              }
              : {}),
            realized_pnl: p.realized_pnl,
            dividends_gross: p.dividends_gross,
            dividends_net: p.dividends_net,
            tax_withheld: p.tax_withheld,
            fractional_entitlements: p.fractional_entitlements
          } satisfies typeof Holding.Type
        })

      const holdings = (principal: Principal) =>
        Effect.gen(function*() {
          const positions = yield* readHoldings(streamOf(principal.userId)).pipe(
            Effect.provideService(SqlClient.SqlClient, sql),
            storeUnavailable
          )
          return yield* Effect.forEach(positions, value)
        })

      const history = (principal: Principal, limit: number, cursor: string | undefined) =>
        Effect.gen(function*() {
          const streamId = streamOf(principal.userId)
          const scope = `history:${streamId}`
          const before = yield* cursors.decode(scope, cursor)
          const events = yield* store.readStream(streamId).pipe(storeUnavailable)
          const newestFirst = [...events].reverse().filter((e) => before === undefined || e.version < Number(before[0]))
          const page = newestFirst.slice(0, limit)
          return {
            total: events.length,
            next_cursor: newestFirst.length > limit ? yield* cursors.encode(scope, [page[page.length - 1]!.version]) : null,
            items: page.map(toEventRecord),
            events
          }
        })

      return { record, holdings, history }
    })
  )
}
