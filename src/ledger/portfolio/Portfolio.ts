/**
 * A user's portfolio: recording transactions (decide against fresh state,
 * append with the expected version, retry on conflict; Idempotency-Key
 * replays), and the read side (holdings valued at the delayed quote, the
 * portfolio with totals, cash flows and paged history).
 *
 * What a write answers is limited to what the caller may read: a credential
 * without `portfolio:read` gets the event only (no holding), an Idempotency-Key
 * replay returns the original event only, and a rejection never says how many
 * shares are held.
 *
 * Owns: one stream per user (`portfolio-<user id>`). Does not own: market
 * data (asks Quotes and MarketFacts), credentials (Keys).
 */
import { Clock, Context, Effect, Layer, Schedule, Semaphore } from "effect"
import {
  DataNotFound,
  IdempotencyMismatch,
  Internal,
  InvalidRequest,
  type InvalidSymbol,
  PayoutRecorded,
  SourceUnavailable,
  WriteConflict
} from "../../../domain/Errors.ts"
import { canonicalJson } from "../../../domain/ledger/Chain.ts"
import type { LedgerItem } from "../../../domain/ledger/Checkpoint.ts"
import type { Command, Context as DeciderContext } from "../../../domain/ledger/Decider.ts"
import type { StoredEvent } from "../../../domain/ledger/Events.ts"
import { effectiveGrants } from "../../../domain/ledger/Grants.ts"
import type { Position } from "../../../domain/ledger/Replay.ts"
import type { EventRecord, Holding, RecordResult } from "../../../domain/ledger/Schemas.ts"
import { streamOf } from "../../../domain/ledger/Streams.ts"
import { isTradingDay, karachiDate, settlementDate } from "../../../domain/market/calendar/Calendar.ts"
import { storeUnavailable } from "../../db/Rows.ts"
import { Filings } from "../../market/filings/Filings.ts"
import { Quotes } from "../../market/quotes/Quotes.ts"
import { Cursors } from "../../paging/Cursors.ts"
import type { Principal } from "../accounts/Keys.ts"
import { ConcurrencyConflict, EventStore, sha256 } from "../events/EventStore.ts"
import { exportRecord } from "../events/StoredRows.ts"
import { MarketFacts } from "./MarketFacts.ts"
import { LedgerWriter } from "./Writer.ts"

export { streamOf }

/** A write that lost a race to another process: retried 6 times, 5 ms doubling (jittered), about 0.3 s in all. */
const CONFLICT_RETRIES = { times: 6, schedule: Schedule.jittered(Schedule.exponential("5 millis")) }

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

type RecordError =
  | InvalidRequest
  | InvalidSymbol
  | DataNotFound
  | IdempotencyMismatch
  | PayoutRecorded
  | SourceUnavailable

export interface RecordOptions {
  readonly idempotencyKey?: string | undefined
  /** The id this server gave the request. */
  readonly requestId?: string | undefined
  /** The client's X-Request-Id, recorded apart from the server's. */
  readonly clientRequestId?: string | undefined
  /** What caused the write (an accepted entitlement's id) and the market record it follows, kept in the metadata. */
  readonly causationId?: string | undefined
  readonly source?: string | undefined
}

/** What the write path uses. */
interface WriteDeps {
  readonly store: typeof EventStore.Service
  readonly writer: typeof LedgerWriter.Service
  readonly market: typeof MarketFacts.Service
  readonly filings: typeof Filings.Service
  readonly value: (p: Position) => Effect.Effect<typeof Holding.Type, SourceUnavailable>
}

/**
 * Writers to one stream in this process queue behind a striped lock, so they
 * rarely collide; the expected-version check in the database still decides
 * between processes (and is what a conflict retry relies on).
 */
const stripedLocks = Effect.map(
  Effect.forEach(Array.from({ length: 64 }), () => Semaphore.make(1)),
  (stripes) => (streamId: string) => {
    let h = 0
    for (let i = 0; i < streamId.length; i++) h = (h * 31 + streamId.charCodeAt(i)) | 0
    return stripes[Math.abs(h) % stripes.length]!
  }
)

/** A holding valued at its latest delayed quote (market fields absent when no quote is known). */
const valueWith = (quotes: typeof Quotes.Service) => (p: Position) =>
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

/** The market facts a command is decided with (asked of the market, never read from its tables here). */
export const factsWith = (market: typeof MarketFacts.Service) => (command: Command, today: string) =>
  Effect.gen(function*() {
    const base: DeciderContext = { today, isTradingDay, settlementDate }
    if (command.kind === "buy" || command.kind === "sell") {
      return { ...base, ...(yield* market.trade(command.symbol, command.trade_date)) }
    }
    if ((command.kind === "dividend" || command.kind === "bonus") && command.book_closure_from === undefined) {
      const kind = command.kind === "bonus" ? "bonus" : "cash"
      return { ...base, bookClosure: yield* market.bookClosure(command.symbol, kind, command.trade_date) }
    }
    return base
  })

/** The answer to a write: the event, and the holding it touched; an earlier request's answer by its key. */
const replies = ({ store, value }: WriteDeps) => {
  const mayRead = (principal: Principal) => effectiveGrants(principal).includes("portfolio:read")

  /** The event, and the holding it touched when the caller may read holdings and this is not a replay. */
  const respond = (event: StoredEvent, positions: ReadonlyArray<Position>, principal: Principal, replayed: boolean) =>
    Effect.gen(function*() {
      const symbol = "symbol" in event.event && event.event.symbol !== "" ? event.event.symbol : undefined
      const position = symbol && mayRead(principal) && !replayed
        ? positions.find((p) => p.symbol === symbol)
        : undefined
      return {
        event: toEventRecord(event),
        ...(position ? { holding: yield* value(position) } : {}),
        flags: event.event.type === "TradeRecorded" ? event.event.flags : [],
        replayed
      } satisfies typeof RecordResult.Type
    })

  /** An earlier request with this key: the original event only, or 409 for another body. */
  const lookupIdempotent = (principal: Principal, key: string, requestHash: string) =>
    Effect.gen(function*() {
      const userId = principal.userId
      const hit = yield* store.idempotencyClaim(userId, key).pipe(storeUnavailable)
      if (hit === undefined) return undefined
      if (hit.request_hash !== requestHash) {
        return yield* new IdempotencyMismatch({
          message: `Idempotency-Key ${key} was used before with a different body`
        })
      }
      const event = yield* store.readEvent(streamOf(userId), hit.event_id, hit.version).pipe(storeUnavailable)
      if (event === undefined) {
        return yield* Effect.die(new Error(`idempotency record points at a missing event ${hit.event_id}`))
      }
      return yield* respond(event, [], principal, true)
    })

  return { respond, lookupIdempotent }
}

/** Records a command: decided against fresh state under the stream's stripe, retried on a concurrent write. */
const makeRecord = (d: WriteDeps, stripeOf: (streamId: string) => Semaphore.Semaphore) => {
  const { respond, lookupIdempotent } = replies(d)
  const factsFor = factsWith(d.market)
  const attempt = (principal: Principal, command: Command, options: RecordOptions, requestHash: string) =>
    Effect.gen(function*() {
      const streamId = streamOf(principal.userId)
      if (options.idempotencyKey) {
        const previous = yield* lookupIdempotent(principal, options.idempotencyKey, requestHash)
        if (previous) return previous
      }
      const facts = yield* factsFor(command, karachiDate(yield* Clock.currentTimeMillis))
      const written = yield* d.writer.write(
        streamId,
        command,
        facts,
        {
          actor_key_id: principal.keyId,
          request_id: options.requestId,
          client_request_id: options.clientRequestId,
          idempotency_key: options.idempotencyKey,
          causation_id: options.causationId,
          source: options.source
        },
        options.idempotencyKey
          ? { user_id: principal.userId, key: options.idempotencyKey, request_hash: requestHash }
          : undefined
      )
      if (written._tag === "Rejected") {
        const { message, symbol, recordedIn } = written.rejection
        const shown = symbol === undefined ? { message } : { message, symbol }
        return yield* recordedIn === undefined
          ? new InvalidRequest(shown)
          : new PayoutRecorded({ ...shown, event_id: recordedIn })
      }
      return yield* respond(written.event, written.positions, principal, false)
    })

  const record = Effect.fn("Portfolio.record")(
    function*(principal: Principal, command: Command, options: RecordOptions) {
      const normalised: Command = "symbol" in command
        ? { ...command, symbol: yield* d.filings.requireListed(command.symbol) }
        : command
      const requestHash = sha256(canonicalJson(normalised))
      return yield* stripeOf(streamOf(principal.userId)).withPermit(
        attempt(principal, normalised, options, requestHash)
      ).pipe(
        // Decide against fresh state and try again when another process's writer got there first (writers of one
        // process queue on the stream's stripe): a few times, backing off, then 409 with nothing recorded.
        Effect.retry({ while: (e) => e instanceof ConcurrencyConflict, ...CONFLICT_RETRIES }),
        Effect.catchTag("ConcurrencyConflict", () =>
          Effect.fail(
            new WriteConflict({
              message: "the portfolio met a conflicting write and nothing was recorded: send it again"
            })
          )),
        Effect.catchTag("SqlError", (e) =>
          Effect.logError({ msg: "ledger write failed", error: e.message }).pipe(
            // The store could not be reached: a 503 the client may retry (with its Idempotency-Key, a retry of a
            // write that did commit returns the original event). Any other refusal is a defect.
            Effect.andThen(
              e.cause._tag === "ConnectionError"
                ? Effect.fail(
                  new SourceUnavailable({ message: "the store did not answer; retry with the same Idempotency-Key" })
                )
                : Effect.die(new Internal({ message: "the store refused the write; nothing was recorded" }))
            )
          ))
      )
    }
  )

  return record
}

/** Reads of a portfolio: holdings valued now, a page of history, every event. */
const readsOf = (cursors: typeof Cursors.Service, store: typeof EventStore.Service, value: WriteDeps["value"]) => {
  const holdings = Effect.fn("Portfolio.holdings")(function*(principal: Principal) {
    const positions = yield* store.positions(streamOf(principal.userId)).pipe(storeUnavailable)
    return yield* Effect.forEach(positions, value)
  })

  /** A page of the stream, newest first, read from the store (never the whole stream): its events and their rows. */
  const pageOf = (principal: Principal, limit: number, cursor: string | undefined) =>
    Effect.gen(function*() {
      const streamId = streamOf(principal.userId)
      const scope = `history:${streamId}`
      const before = yield* cursors.decode(scope, cursor)
      const page = yield* store.readPage(streamId, before === undefined ? undefined : Number(before[0]), limit + 1)
        .pipe(storeUnavailable)
      const events = page.events.slice(0, limit)
      return {
        total: page.total,
        next_cursor: page.events.length > limit
          ? yield* cursors.encode(scope, [events[events.length - 1]!.version])
          : null,
        events,
        rows: page.rows.slice(0, limit)
      }
    })

  const history = (principal: Principal, limit: number, cursor: string | undefined) =>
    Effect.map(
      pageOf(principal, limit, cursor),
      ({ events, rows: _, ...page }) => ({ ...page, items: events.map(toEventRecord) })
    )

  /** The ledger listing's page: each event as its export line's fields, with the listing's `type` and `payload`. */
  const ledger = (principal: Principal, limit: number, cursor: string | undefined) =>
    Effect.map(pageOf(principal, limit, cursor), ({ events, rows, ...page }) => ({
      ...page,
      items: rows.map((row, i): typeof LedgerItem.Type => {
        const { metadata, ...line } = exportRecord(row)
        return { ...toEventRecord(events[i]!), ...line, ...(metadata === undefined ? {} : { metadata }) }
      })
    }))

  /** Every event of the stream (for views that sum over all of it): the stream cache's prefix plus what is new. */
  const events = (principal: Principal) => store.readStream(streamOf(principal.userId)).pipe(storeUnavailable)

  return { holdings, history, ledger, events }
}

export class Portfolio extends Context.Service<Portfolio, {
  readonly record: (
    principal: Principal,
    command: Command,
    options: RecordOptions
  ) => Effect.Effect<typeof RecordResult.Type, RecordError>
  readonly holdings: (principal: Principal) => Effect.Effect<ReadonlyArray<typeof Holding.Type>, SourceUnavailable>
  readonly history: (principal: Principal, limit: number, cursor: string | undefined) => Effect.Effect<{
    readonly total: number
    readonly next_cursor: string | null
    readonly items: ReadonlyArray<typeof EventRecord.Type>
  }, InvalidRequest | SourceUnavailable>
  /** The ledger listing's page (GET /v1/me/ledger): what `ledger export` writes for each event, newest first. */
  readonly ledger: (principal: Principal, limit: number, cursor: string | undefined) => Effect.Effect<{
    readonly total: number
    readonly next_cursor: string | null
    readonly items: ReadonlyArray<typeof LedgerItem.Type>
  }, InvalidRequest | SourceUnavailable>
  readonly events: (principal: Principal) => Effect.Effect<ReadonlyArray<StoredEvent>, SourceUnavailable>
}>()("psx/ledger/Portfolio") {
  static readonly layer = Layer.effect(
    Portfolio,
    Effect.gen(function*() {
      const store = yield* EventStore
      const value = valueWith(yield* Quotes)
      const deps: WriteDeps = {
        store,
        writer: yield* LedgerWriter,
        market: yield* MarketFacts,
        filings: yield* Filings,
        value
      }
      return {
        record: makeRecord(deps, yield* stripedLocks),
        ...readsOf(yield* Cursors, store, value)
      }
    })
  )
}
