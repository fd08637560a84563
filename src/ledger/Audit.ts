/**
 * What an auditor runs: recompute every hash of a stream's chain, replay the
 * events into a fresh projection and compare it with the live one; rebuild
 * projections from events; export a stream as NDJSON. Whole-ledger runs page
 * through streams and report progress.
 */
import { Clock, Context, Effect, Fiber, Layer, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { chainInput, GENESIS } from "../../domain/ledger/Chain.ts"
import type { Position } from "../../domain/ledger/Decider.ts"
import type { StoredEvent } from "../../domain/ledger/Events.ts"
import type { VerifyResult } from "../../domain/ledger/Schemas.ts"
import { canonicalJson } from "../../domain/ledger/Chain.ts"
import { COLUMNS, decodeStored, EventStore, type Head, sha256 } from "./EventStore.ts"
import { decodePositions, HOLDING_COLUMNS, lastEffectiveOf, positionsOf, readHoldings, samePositions, writeHoldings } from "./Projection.ts"

type Verify = typeof VerifyResult.Type

const HeadRows = Schema.Array(Schema.Struct({
  stream_id: Schema.String,
  version: Schema.Int,
  head_hash: Schema.String,
  last_effective: Schema.String
}))

/** Recomputes the chain of one stream's events (in version order). */
export const verifyChain = (streamId: string, events: ReadonlyArray<StoredEvent>): Verify["first_failure"] => {
  let prev = GENESIS
  let expectedVersion = 1
  for (const e of events) {
    const fail = (reason: string) => ({ event_id: e.event_id, version: e.version, position: e.position, reason })
    if (e.version !== expectedVersion) return fail(`version ${e.version} where ${expectedVersion} was expected (a gap or a reorder)`)
    if (e.prev_hash !== prev) return fail("prev_hash does not match the previous event's hash")
    const recomputed = sha256(chainInput(prev, {
      stream_id: streamId,
      version: e.version,
      event_id: e.event_id,
      effective_date: e.effective_date,
      recorded_at: e.recorded_at,
      payload: e.event
    }))
    if (recomputed !== e.hash) return fail("the stored hash does not match the event's content: it was altered")
    prev = e.hash
    expectedVersion++
  }
  return undefined
}

export class Audit extends Context.Service<Audit, {
  readonly verifyStream: (streamId: string) => Effect.Effect<Verify, SqlError.SqlError>
  readonly verifyAll: (onProgress?: (done: number, total: number) => Effect.Effect<void>) => Effect.Effect<{
    readonly streams: number
    readonly events: number
    readonly failures: ReadonlyArray<Verify>
    readonly seconds: number
  }, SqlError.SqlError>
  readonly rebuildAll: Effect.Effect<{ readonly streams: number; readonly events: number }, SqlError.SqlError>
  readonly exportStream: (streamId: string) => Effect.Effect<ReadonlyArray<string>, SqlError.SqlError>
}>()("psx/ledger/Audit") {
  static readonly layer = Layer.effect(
    Audit,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const store = yield* EventStore

      // Auditors read the stored rows directly, never a cache.
      const load = (streamId: string) =>
        sql.unsafe(`SELECT ${COLUMNS} FROM events WHERE stream_id = $1 ORDER BY version`, [streamId]).pipe(
          Effect.flatMap(decodeStored)
        )

      /** The head appends decide from equals the replay's: last version, its hash, the latest effective date. */
      const sameHead = (head: Head | undefined, events: ReadonlyArray<StoredEvent>) => {
        const last = events[events.length - 1]
        if (last === undefined) return head === undefined || head.version === 0
        return head !== undefined && head.version === last.version && head.hash === last.hash &&
          head.last_effective === lastEffectiveOf(events)
      }

      const verifyStream = Effect.fn("Audit.verifyStream")(function*(streamId: string) {
        const events = yield* load(streamId)
        const failure = verifyChain(streamId, events)
        const live = yield* readHoldings(streamId).pipe(Effect.provideService(SqlClient.SqlClient, sql))
        const head = yield* store.head(streamId)
        const projection_matches = (streamId.startsWith("portfolio-") ? samePositions(positionsOf(events), live) : true) &&
          sameHead(head, events)
        return {
          stream_id: streamId,
          ok: failure === undefined && projection_matches,
          events: events.length,
          ...(events.length > 0 ? { head_hash: events[events.length - 1]!.hash } : {}),
          ...(failure ? { first_failure: failure } : {}),
          projection_matches
        }
      })

      const streams = Effect.map(
        sql<{ stream_id: string }>`select distinct stream_id from events order by stream_id`,
        (rows) => rows.map((r) => r.stream_id)
      )

      /** Every stream in one pass over the events table, in pages, checking each stream as it completes. */
      const verifyAll = (onProgress?: (done: number, total: number) => Effect.Effect<void>) =>
        Effect.gen(function*() {
          const started = yield* Clock.currentTimeMillis
          const totalRows = yield* sql<{ n: number; streams: number }>`
            select count(*)::int as n, count(distinct stream_id)::int as streams from events`
          const totalStreams = totalRows[0]?.streams ?? 0
          const liveRows = yield* sql.unsafe<{ stream_id: string }>(
            `SELECT stream_id, ${HOLDING_COLUMNS} FROM holdings ORDER BY stream_id, symbol`
          )
          const livePositions = yield* decodePositions(liveRows)
          const live = new Map<string, Array<Position>>()
          liveRows.forEach((r, i) => live.set(r.stream_id, [...(live.get(r.stream_id) ?? []), livePositions[i]!]))
          const headRows = yield* Effect.flatMap(
            sql`SELECT stream_id, version, head_hash, last_effective::text AS last_effective FROM stream_heads`,
            Schema.decodeUnknownEffect(HeadRows)
          ).pipe(Effect.orDie)
          const heads = new Map(headRows.map((h) => [h.stream_id, { version: h.version, hash: h.head_hash, last_effective: h.last_effective }]))
          const failures: Array<Verify> = []
          let events = 0
          let done = 0
          let current: { id: string; events: Array<StoredEvent> } | undefined
          const finish = (stream: { id: string; events: Array<StoredEvent> }) => {
            const failure = verifyChain(stream.id, stream.events)
            const projection_matches = (stream.id.startsWith("portfolio-")
              ? samePositions(positionsOf(stream.events), live.get(stream.id) ?? [])
              : true) && sameHead(heads.get(stream.id), stream.events)
            events += stream.events.length
            done++
            if (failure || !projection_matches) {
              failures.push({
                stream_id: stream.id,
                ok: false,
                events: stream.events.length,
                ...(failure ? { first_failure: failure } : {}),
                projection_matches
              })
            }
          }
          const fetchPage = (after: readonly [string, number]) =>
            sql.unsafe(
              `SELECT ${COLUMNS} FROM events WHERE (stream_id, version) > ($1, $2) ORDER BY stream_id, version LIMIT 10000`,
              [...after]
            ).pipe(Effect.flatMap(decodeStored))
          let page = yield* fetchPage(["", 0])
          while (page.length > 0) {
            // The next page loads while this one is checked.
            const tail = page[page.length - 1]!
            const nextPage = yield* Effect.forkChild(fetchPage([tail.stream_id, tail.version]))
            for (const e of page) {
              if (current === undefined || current.id !== e.stream_id) {
                if (current) finish(current)
                current = { id: e.stream_id, events: [] }
              }
              current.events.push(e)
            }
            if (onProgress) yield* onProgress(done, totalStreams)
            page = yield* Fiber.join(nextPage)
          }
          if (current) finish(current)
          if (onProgress) yield* onProgress(done, totalStreams)
          return { streams: done, events, failures, seconds: ((yield* Clock.currentTimeMillis) - started) / 1000 }
        })

      const rebuildAll = Effect.gen(function*() {
        const ids = yield* streams
        let events = 0
        for (const id of ids) {
          const evs = yield* load(id)
          events += evs.length
          yield* sql.withTransaction(writeHoldings(id, evs).pipe(Effect.provideService(SqlClient.SqlClient, sql)))
        }
        return { streams: ids.length, events }
      })

      const exportStream = (streamId: string) =>
        Effect.map(load(streamId), (events) => events.map((e) => canonicalJson(e)))

      return { verifyStream, verifyAll, rebuildAll, exportStream }
    })
  )
}
