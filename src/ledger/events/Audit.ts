/**
 * What an auditor runs: recompute every hash of a stream's chain from the
 * exact stored bytes, replay the events into a fresh projection and compare
 * it with the live one, and check every signed checkpoint against the pinned
 * keys and the chain; rebuild projections from events; export a stream as
 * NDJSON. Whole-ledger runs stream the events in batches of 2,000 (the next
 * batch loads while one is checked) and report progress.
 *
 * `verifyStream` (the API's verify) re-hashes every stored row on every call
 * (bytes only: any edit breaks a hash), but decodes and replays only the rows
 * after the prefix it last verified in this process, on top of that prefix's
 * positions, when they apply in order; a backdated event or a reversal
 * replays the whole stream. Checkpoints are checked once each. `verifyAll`
 * (the `ledger verify` command) decodes and replays everything.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { LRUCache } from "lru-cache"
import type { Entry, Position } from "../../../domain/ledger/Decider.ts"
import type { VerifyResult } from "../../../domain/ledger/Schemas.ts"
import { isPortfolioStream } from "../../../domain/ledger/Streams.ts"
import { readHoldings, samePositions, writeHoldings } from "../portfolio/Projection.ts"
import { LedgerSigner } from "../signing/Signing.ts"
import { type AuditRows, auditRows } from "./AuditRows.ts"
import { checkRow, type Failure, NOTHING_VERIFIED, type Verified } from "./ChainCheck.ts"
import { checkpointFailures, incremental, positionsAfter, replayStream } from "./Replays.ts"
import { type EventRow, exportLine, toStored } from "./StoredRows.ts"
import { makeVerifyAll } from "./VerifyAll.ts"

type Verify = typeof VerifyResult.Type
/**
 * The prefix of each stream verified in this process (dropped on any failure): at most 10,000 streams and 16 MiB,
 * an entry's bytes estimated as 256 for its head and ids plus 256 a position (a symbol and eight figures).
 */
type VerifiedPrefixes = LRUCache<
  string,
  { readonly at: Verified; readonly positions: ReadonlyMap<string, Position>; readonly checkpointId: string }
>
const VERIFIED = { max: 10_000, maxSize: 16 * 1024 * 1024 } as const
const verifiedBytes = (positions: ReadonlyArray<Position>) => 256 + 256 * positions.length

/** Every row re-hashed in order; only rows after `decodedUpTo` decoded into entries; the first failure stops it. */
const checkRows = (rows: ReadonlyArray<EventRow>, decodedUpTo: number | undefined) => {
  let at = NOTHING_VERIFIED
  let failure: Failure | undefined
  const entries: Array<Entry> = []
  for (const row of rows) {
    const r = checkRow(at, row, decodedUpTo === undefined || row.version > decodedUpTo)
    if (r._tag === "Fail") {
      failure = r.failure
      break
    }
    at = r.at
    if (r.entry) entries.push(r.entry)
  }
  return { at, failure, entries }
}

/**
 * The API's verify of one stream, re-hashing every row and replaying only
 * what follows the prefix it verified last (kept in `verified`).
 */
const makeVerifyStream = (
  store: AuditRows,
  signer: typeof LedgerSigner.Service,
  withSql: <A, E>(e: Effect.Effect<A, E, SqlClient.SqlClient>) => Effect.Effect<A, E>,
  verified: VerifiedPrefixes
) => {
  const verifyStream: (streamId: string) => Effect.Effect<Verify, SqlError.SqlError> = Effect.fn("Audit.verifyStream")(
    function*(streamId: string): Effect.fn.Return<Verify, SqlError.SqlError> {
      const rows = yield* store.rowsAfter(streamId, 1)
      // Every row's bytes are re-hashed on every call; only rows after the verified prefix are decoded and replayed.
      const known = verified.get(streamId)
      const keep = known !== undefined && rows[known.at.version - 1]?.hash === known.at.hash ? known : undefined
      const checked = checkRows(rows, keep?.at.version)
      const { at, entries } = checked
      let failure = checked.failure
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
      const projection_matches = !isPortfolioStream(streamId) ||
        (positions !== undefined && samePositions(positions, live))
      const checkpoints = yield* signer.checkpointsOf(streamId, keep?.checkpointId ?? "0")
      const check = yield* signer.verifier
      const cps = checkpointFailures(
        checkpoints,
        yield* store.hashesAt(streamId, checkpoints.map((c) => c.version)),
        check
      )
      const first_failure = failure ?? cps.find((c) => c.failure)?.failure
      // An untrusted key or a bad signature is the checkpoint's problem, never reported as a changed event.
      const checkpoint_problem = cps.find((c) => c.issue)?.issue
      const ok = first_failure === undefined && checkpoint_problem === undefined && projection_matches
      verified.delete(streamId)
      if (ok && positions !== undefined) {
        const checkpointId = checkpoints[checkpoints.length - 1]?.id ?? keep?.checkpointId ?? "0"
        verified.set(
          streamId,
          { at, positions: new Map(positions.map((p) => [p.symbol, p])), checkpointId },
          { size: verifiedBytes(positions) }
        )
      }
      return {
        stream_id: streamId,
        ok,
        events: rows.length,
        ...(at.version > 0 ? { head_hash: at.hash } : {}),
        ...(first_failure ? { first_failure } : {}),
        ...(checkpoint_problem ? { checkpoint_problem } : {}),
        projection_matches
      }
    }
  )

  return verifyStream
}

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
      const verified: VerifiedPrefixes = new LRUCache(VERIFIED)
      const rows = auditRows(sql)
      const verifyStream = makeVerifyStream(rows, signer, withSql, verified)
      const verifyAll = makeVerifyAll(sql, rows, signer)

      const rebuildAll = Effect.fn("Audit.rebuildAll")(function*() {
        const ids = (yield* sql<{ stream_id: string }>`select distinct stream_id from events order by stream_id`).map((
          r
        ) => r.stream_id)
        let events = 0
        for (const id of ids) {
          const evs = (yield* rows.rowsAfter(id, 1)).map(toStored)
          events += evs.length
          yield* sql.withTransaction(withSql(writeHoldings(id, evs)))
          verified.delete(id)
        }
        return { streams: ids.length, events }
      })()

      const exportStream = Effect.fn("Audit.exportStream")(function*(streamId: string) {
        return (yield* rows.rowsAfter(streamId, 1)).map(exportLine)
      })

      return { verifyStream, verifyAll, rebuildAll, exportStream }
    })
  )
}
