/**
 * What an auditor runs: recompute every hash of a stream's chain from the
 * exact stored bytes, replay the events into a fresh projection and compare
 * it with the live one, and check every signed checkpoint against the pinned
 * keys and the chain; rebuild projections from events; export a stream as
 * NDJSON. Whole-ledger runs stream the events in batches of 10,000 (the next
 * batch loads while one is checked) and report progress.
 *
 * `verifyStream` (the API's verify) re-hashes every stored row on every call
 * (bytes only: any edit breaks a hash), but decodes and replays only the rows
 * after the prefix it last verified in this process, on top of that prefix's
 * positions, when they apply in order; a backdated event or a reversal
 * replays the whole stream. Checkpoints are checked once each. `verifyAll`
 * (the `ledger verify` command) decodes and replays everything.
 */
import { Clock, Context, Effect, Fiber, Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { checkCheckpoint, type SignedCheckpoint } from "../../../domain/ledger/Checkpoint.ts"
import { type Entry, evolve, type Position, replay } from "../../../domain/ledger/Decider.ts"
import { checkAndReplay } from "../../../domain/ledger/ReplayCheck.ts"
import type { VerifyResult } from "../../../domain/ledger/Schemas.ts"
import { LedgerSigner, type SignatureCheck } from "../signing/Signing.ts"
import { decodePositions, HOLDING_COLUMNS, readHoldings, samePositions, writeHoldings } from "../portfolio/Projection.ts"
import { checkRow, type Failure, NOTHING_VERIFIED, type Verified } from "./ChainCheck.ts"
import { COLUMNS, eventRows, exportLine, toStored } from "./StoredRows.ts"

type Verify = typeof VerifyResult.Type
const BATCH = 10_000
const MAX_VERIFIED = 10_000
const YIELD_EVERY = 2_000

/** The positions a replay of `entries` gives (sorted by symbol), or undefined when a quantity went negative. */
const replayed = (entries: ReadonlyArray<Entry>): ReadonlyArray<Position> | undefined => {
  const r = replay(entries)
  return r._tag === "Ok" ? [...r.state.values()].sort((a, b) => a.symbol.localeCompare(b.symbol)) : undefined
}

/** Entries `evolve` applies to kept positions without the stream's history: in-order trades, donations, tax status. */
const incremental = (e: Entry, since: string) =>
  e.event.type === "DonationRecorded" || e.event.type === "TaxStatusRecorded" ||
  (e.event.type === "TradeRecorded" && e.effective_date >= since)

/** Kept positions after in-order entries (each `incremental`), sorted by symbol. */
const positionsAfter = (positions: ReadonlyMap<string, Position>, at: Verified, entries: ReadonlyArray<Entry>) =>
  [...entries.reduce(evolve, { version: at.version, lastEffective: at.last_effective, positions }).positions.values()]
    .sort((a, b) => a.symbol.localeCompare(b.symbol))

/** A full replay: the positions (absent when the stream does not replay), or a decision failure. */
interface Replayed {
  readonly failure?: Failure | undefined
  readonly positions?: ReadonlyArray<Position> | undefined
}

/**
 * A portfolio stream's full replay with the decision rules re-run (one pass):
 * its positions, or the first event the rules would not have accepted as a
 * verify failure. `positionAt(version)` gives that event's ledger position.
 */
const decidedReplay = (entries: ReadonlyArray<Entry>, positionAt: (version: number) => number): Replayed => {
  const r = checkAndReplay(entries)
  if (r._tag === "Ok") return { positions: [...r.state.values()] }
  const f = r.failure
  return { failure: { event_id: f.event_id, version: f.version, position: positionAt(f.version), reason: `decision: ${f.reason}` } }
}

/** Positions a stream's events replay to: with the decision rules for a portfolio stream, else the plain replay. */
const replayStream = (streamId: string, entries: ReadonlyArray<Entry>, positionAt: (version: number) => number): Replayed =>
  streamId.startsWith("portfolio-") ? decidedReplay(entries, positionAt) : { positions: replayed(entries) }

/** A checkpoint that does not hold, as a verify failure at the event of its version. */
const checkpointFailures = (
  checkpoints: ReadonlyArray<SignedCheckpoint>,
  hashes: ReadonlyMap<string, { readonly hash: string; readonly event_id: string; readonly position: number }>,
  check: SignatureCheck
) =>
  checkpoints.flatMap((c): Array<{ readonly stream_id: string; readonly failure: Failure }> => {
    const at = (v: number) => hashes.get(`${c.stream_id}/${v}`)
    const reason = checkCheckpoint(c, (v) => at(v)?.hash, check)
    if (reason === undefined) return []
    const e = at(c.version)
    return [{ stream_id: c.stream_id, failure: { event_id: e?.event_id ?? "", version: c.version, position: e?.position ?? 0, reason: `checkpoint: ${reason}` } }]
  })

export class Audit extends Context.Service<Audit, {
  readonly verifyStream: (streamId: string) => Effect.Effect<Verify, SqlError.SqlError>
  readonly verifyAll: (onProgress?: (done: number, total: number) => Effect.Effect<void>) => Effect.Effect<{
    readonly streams: number
    readonly events: number
    readonly checkpoints: number
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
      const signer = yield* LedgerSigner
      const withSql = Effect.provideService(SqlClient.SqlClient, sql)
      // The prefix of each stream verified in this process (bounded; dropped on any failure).
      const verified = new Map<string, { readonly at: Verified; readonly positions: ReadonlyMap<string, Position>; readonly checkpointId: string }>()

      const rowsAfter = (streamId: string, fromVersion: number) =>
        Effect.flatMap(
          sql.unsafe(`SELECT ${COLUMNS} FROM events WHERE stream_id = $1 AND version >= $2 ORDER BY version`, [streamId, fromVersion]),
          eventRows
        )

      /** Stored hashes at given versions of a stream (what its checkpoints are checked against). */
      const hashesAt = (streamId: string, versions: ReadonlyArray<number>) =>
        Effect.map(
          sql.unsafe<{ version: number; hash: string; event_id: string; position: string }>(
            `SELECT version, hash, event_id, position::text AS position FROM events WHERE stream_id = $1 AND version = ANY($2::int[])`,
            [streamId, `{${versions.join(",")}}`]
          ),
          (rows) => new Map(rows.map((r) => [`${streamId}/${r.version}`, { hash: r.hash, event_id: r.event_id, position: Number(r.position) }]))
        )

      const verifyStream = Effect.fn("Audit.verifyStream")(function*(streamId: string): Effect.fn.Return<Verify, SqlError.SqlError> {
        const rows = yield* rowsAfter(streamId, 1)
        // Every row's bytes are re-hashed on every call; only rows after the verified prefix are decoded and replayed.
        const known = verified.get(streamId)
        const keep = known !== undefined && rows[known.at.version - 1]?.hash === known.at.hash ? known : undefined
        let at = NOTHING_VERIFIED
        let failure: Failure | undefined
        const entries: Array<Entry> = []
        for (const row of rows) {
          const r = checkRow(at, row, keep === undefined || row.version > keep.at.version)
          if (r._tag === "Fail") {
            failure = r.failure
            break
          }
          at = r.at
          if (r.entry) entries.push(r.entry)
        }
        const inOrder = keep !== undefined &&
          entries.every((e) => incremental(e, keep.at.last_effective))
        if (failure === undefined && keep !== undefined && !inOrder) {
          // A backdated event or a reversal since the last verify: decode and replay the whole stream.
          verified.delete(streamId)
          return yield* verifyStream(streamId)
        }
        // A full replay also re-runs the decision rules: a valid chain of events the decider would have refused fails.
        const full = failure === undefined && keep === undefined
          ? replayStream(streamId, entries, (v) => Number(rows[v - 1]?.position ?? 0))
          : undefined
        if (full?.failure !== undefined) failure = full.failure
        const positions = failure !== undefined
          ? undefined
          : keep !== undefined
          ? positionsAfter(keep.positions, keep.at, entries)
          : full?.positions
        const live = yield* withSql(readHoldings(streamId))
        const projection_matches = !streamId.startsWith("portfolio-") || (positions !== undefined && samePositions(positions, live))
        const checkpoints = yield* signer.checkpointsOf(streamId, keep?.checkpointId ?? "0")
        const check = yield* signer.verifier
        const cpFailure = checkpointFailures(checkpoints, yield* hashesAt(streamId, checkpoints.map((c) => c.version)), check)[0]?.failure
        const first_failure = failure ?? cpFailure
        const ok = first_failure === undefined && projection_matches
        verified.delete(streamId)
        if (ok && positions !== undefined) {
          if (verified.size >= MAX_VERIFIED) verified.delete(verified.keys().next().value!)
          const checkpointId = checkpoints[checkpoints.length - 1]?.id ?? keep?.checkpointId ?? "0"
          verified.set(streamId, { at, positions: new Map(positions.map((p) => [p.symbol, p])), checkpointId })
        }
        return {
          stream_id: streamId,
          ok,
          events: rows.length,
          ...(at.version > 0 ? { head_hash: at.hash } : {}),
          ...(first_failure ? { first_failure } : {}),
          projection_matches
        }
      })

      /** Every live holding, by stream. */
      const liveHoldings = Effect.gen(function*() {
        const rows = yield* sql.unsafe<{ stream_id: string }>(`SELECT stream_id, ${HOLDING_COLUMNS} FROM holdings ORDER BY stream_id, symbol`)
        const positions = yield* decodePositions(rows)
        const live = new Map<string, Array<Position>>()
        rows.forEach((r, i) => {
          const list = live.get(r.stream_id)
          if (list) list.push(positions[i]!)
          else live.set(r.stream_id, [positions[i]!])
        })
        return live
      })

      /** Every checkpoint issued, checked against the pinned keys and the stored chain. */
      const allCheckpointFailures = Effect.gen(function*() {
        const checkpoints = yield* signer.allCheckpoints
        const check = yield* signer.verifier
        const hashes = new Map<string, { hash: string; event_id: string; position: number }>()
        const byStream = Map.groupBy(checkpoints, (c) => c.stream_id)
        for (const [stream, list] of byStream) {
          for (const [k, v] of yield* hashesAt(stream, list.map((c) => c.version))) hashes.set(k, v)
        }
        return { count: checkpoints.length, failures: checkpointFailures(checkpoints, hashes, check) }
      })

      const verifyAll = Effect.fn("Audit.verifyAll")(function*(onProgress?: (done: number, total: number) => Effect.Effect<void>) {
        const started = yield* Clock.currentTimeMillis
        const fetchPage = (after: readonly [string, number]) =>
          Effect.flatMap(
            sql.unsafe(`SELECT ${COLUMNS} FROM events WHERE (stream_id, version) > ($1, $2) ORDER BY stream_id, version LIMIT ${BATCH}`, [...after]),
            eventRows
          )
        // The stream count, the live projection and the first page load together.
        const [totals, live, first] = yield* Effect.all([
          sql<{ streams: number }>`select count(distinct stream_id)::int as streams from events`,
          liveHoldings,
          fetchPage(["", 0])
        ], { concurrency: 3 })
        const totalStreams = totals[0]?.streams ?? 0
        const failures: Array<Verify> = []
        let events = 0
        let done = 0
        // A stream being checked: its verified prefix, its typed entries and each version's ledger position.
        let current: { id: string; at: Verified; entries: Array<Entry>; positions: Array<string>; failure: Failure | undefined } | undefined
        const finish = (s: NonNullable<typeof current>) => {
          const r = s.failure === undefined ? replayStream(s.id, s.entries, (v) => Number(s.positions[v - 1] ?? 0)) : undefined
          if (r?.failure !== undefined) s.failure = r.failure
          const positions = s.failure === undefined ? r?.positions : undefined
          const projection_matches = !s.id.startsWith("portfolio-") || (positions !== undefined && samePositions(positions, live.get(s.id) ?? []))
          events += s.at.version + (s.failure ? 1 : 0)
          done++
          if (s.failure || !projection_matches) {
            failures.push({ stream_id: s.id, ok: false, events: s.at.version, ...(s.failure ? { first_failure: s.failure } : {}), projection_matches })
          }
        }
        let page = first
        while (page.length > 0) {
          // The next batch loads while this one is checked: the fetch is started, and the check yields now and
          // then, so the query is sent and its rows are read while this page is hashed and replayed.
          const tail = page[page.length - 1]!
          const nextPage = yield* Effect.forkChild(fetchPage([tail.stream_id, tail.version]))
          yield* Effect.yieldNow
          for (let i = 0; i < page.length; i++) {
            const row = page[i]!
            if (i % YIELD_EVERY === YIELD_EVERY - 1) yield* Effect.yieldNow
            if (current === undefined || current.id !== row.stream_id) {
              if (current) finish(current)
              current = { id: row.stream_id, at: NOTHING_VERIFIED, entries: [], positions: [], failure: undefined }
            }
            if (current.failure !== undefined) continue
            const r = checkRow(current.at, row)
            if (r._tag === "Fail") current.failure = r.failure
            else {
              current.at = r.at
              current.positions.push(row.position)
              if (r.entry) current.entries.push(r.entry)
            }
          }
          if (onProgress) yield* onProgress(done, totalStreams)
          page = yield* Fiber.join(nextPage)
        }
        if (current) finish(current)
        const cps = yield* allCheckpointFailures
        for (const f of cps.failures) failures.push({ stream_id: f.stream_id, ok: false, events: f.failure.version, first_failure: f.failure, projection_matches: true })
        if (onProgress) yield* onProgress(done, totalStreams)
        return { streams: done, events, checkpoints: cps.count, failures, seconds: ((yield* Clock.currentTimeMillis) - started) / 1000 }
      })

      const rebuildAll = Effect.fn("Audit.rebuildAll")(function*() {
        const ids = (yield* sql<{ stream_id: string }>`select distinct stream_id from events order by stream_id`).map((r) => r.stream_id)
        let events = 0
        for (const id of ids) {
          const evs = (yield* rowsAfter(id, 1)).map(toStored)
          events += evs.length
          yield* sql.withTransaction(withSql(writeHoldings(id, evs)))
          verified.delete(id)
        }
        return { streams: ids.length, events }
      })()

      const exportStream = Effect.fn("Audit.exportStream")(function*(streamId: string) {
        return (yield* rowsAfter(streamId, 1)).map(exportLine)
      })

      return { verifyStream, verifyAll, rebuildAll, exportStream }
    })
  )
}
