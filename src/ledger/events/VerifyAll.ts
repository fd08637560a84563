/**
 * The whole-ledger verify (`ledger verify`): every stream's chain re-hashed
 * from the stored bytes, decoded and replayed, compared with the live
 * holdings, and every signed checkpoint checked. Events stream in batches of
 * BATCH (the next batch loads while one is checked), with progress.
 */
import { Clock, Effect, Fiber } from "effect"
import type { SqlClient } from "effect/sql"
import type { Entry, Position } from "../../../domain/ledger/Decider.ts"
import type { VerifyResult } from "../../../domain/ledger/Schemas.ts"
import { isPortfolioStream } from "../../../domain/ledger/Streams.ts"
import { samePositions } from "../portfolio/Projection.ts"
import type { LedgerSigner } from "../signing/Signing.ts"
import type { AuditRows } from "./AuditRows.ts"
import { checkRow, type Failure, NOTHING_VERIFIED, type Verified } from "./ChainCheck.ts"
import { checkpointFailures, replayStream } from "./Replays.ts"
import { COLUMNS, type EventRow, eventRows } from "./StoredRows.ts"

type Verify = typeof VerifyResult.Type
type CheckpointProblem = NonNullable<Verify["checkpoint_problem"]>
// 2,000 rows a page: two pages (the one checked and the one loading) fit in V8's young generation, so rows die
// young. Pages of 10,000 outlived their scavenges, were promoted and grew the heap, and the page faults of that growth
// cost a fresh process a third of its first verify (bench:ledger, alternating: 127-160k events/s steady and
// 106-116k first against 186-193k and 129-149k).
const BATCH = 2_000
const YIELD_EVERY = 2_000

/** A stream being checked: its verified prefix, its typed entries and each version's ledger position. */
interface Checking {
  readonly id: string
  at: Verified
  readonly entries: Array<Entry>
  readonly positions: Array<string>
  failure: Failure | undefined
}

/** The run's tally: streams finished, events checked, failures found. */
interface Tally {
  readonly live: ReadonlyMap<string, ReadonlyArray<Position>>
  readonly failures: Array<Verify>
  events: number
  done: number
  current: Checking | undefined
}

/** A stream's last row is checked: replay it, compare with the live holdings, count it. */
const finish = (t: Tally, s: Checking) => {
  const r = s.failure === undefined ? replayStream(s.id, s.entries, (v) => Number(s.positions[v - 1] ?? 0)) : undefined
  if (r?.failure !== undefined) s.failure = r.failure
  const positions = s.failure === undefined ? r?.positions : undefined
  const projection_matches = !isPortfolioStream(s.id) ||
    (positions !== undefined && samePositions(positions, t.live.get(s.id) ?? []))
  t.events += s.at.version + (s.failure ? 1 : 0)
  t.done++
  if (s.failure || !projection_matches) {
    t.failures.push({
      stream_id: s.id,
      ok: false,
      events: s.at.version,
      ...(s.failure ? { first_failure: s.failure } : {}),
      projection_matches
    })
  }
}

/** One stored row into the stream it belongs to (a new stream finishes the one before). */
const checkInto = (t: Tally, row: EventRow) => {
  if (t.current === undefined || t.current.id !== row.stream_id) {
    if (t.current) finish(t, t.current)
    t.current = { id: row.stream_id, at: NOTHING_VERIFIED, entries: [], positions: [], failure: undefined }
  }
  const c = t.current
  if (c.failure !== undefined) return
  const r = checkRow(c.at, row)
  if (r._tag === "Fail") c.failure = r.failure
  else {
    c.at = r.at
    c.positions.push(row.position)
    if (r.entry) c.entries.push(r.entry)
  }
}

/**
 * One result per stream that does not verify, by stream id: its own first failure, or the checkpoint failure
 * at the lowest version when that comes first (or the stream had none of its own), so a stream with a
 * rewritten event and three checkpoints that no longer hold is counted once.
 */
export const perStream = (
  streams: ReadonlyArray<Verify>,
  checkpoints: ReadonlyArray<
    { readonly stream_id: string; readonly failure?: Failure; readonly issue?: CheckpointProblem }
  >
): ReadonlyArray<Verify> => {
  const byStream = new Map(streams.map((f) => [f.stream_id, f]))
  const failing = (stream_id: string, version: number): Verify =>
    byStream.get(stream_id) ?? { stream_id, ok: false, events: version, projection_matches: true }
  for (const { stream_id, failure, issue } of checkpoints) {
    const known = byStream.get(stream_id)
    if (
      failure !== undefined && !(known?.first_failure !== undefined && known.first_failure.version <= failure.version)
    ) {
      byStream.set(stream_id, { ...failing(stream_id, failure.version), ok: false, first_failure: failure })
    }
    if (
      issue !== undefined &&
      !(known?.checkpoint_problem !== undefined && known.checkpoint_problem.version <= issue.version)
    ) {
      byStream.set(stream_id, { ...failing(stream_id, issue.version), ok: false, checkpoint_problem: issue })
    }
  }
  return [...byStream.values()].sort((a, b) => a.stream_id.localeCompare(b.stream_id))
}

export const makeVerifyAll = (sql: SqlClient.SqlClient, rows: AuditRows, signer: typeof LedgerSigner.Service) => {
  /** Every checkpoint issued, checked against the pinned keys and the stored chain. */
  const allCheckpointFailures = Effect.gen(function*() {
    const checkpoints = yield* signer.allCheckpoints
    const check = yield* signer.verifier
    const hashes = new Map<string, { hash: string; event_id: string; position: number }>()
    const byStream = Map.groupBy(checkpoints, (c) => c.stream_id)
    for (const [stream, list] of byStream) {
      for (const [k, v] of yield* rows.hashesAt(stream, list.map((c) => c.version))) hashes.set(k, v)
    }
    return { count: checkpoints.length, failures: checkpointFailures(checkpoints, hashes, check) }
  })

  const fetchPage = (after: readonly [string, number]) =>
    Effect.flatMap(
      sql.unsafe(
        `SELECT ${COLUMNS} FROM events WHERE (stream_id, version) > ($1, $2) ORDER BY stream_id, version LIMIT ${BATCH}`,
        [...after]
      ),
      eventRows
    )

  return Effect.fn("Audit.verifyAll")(function*(onProgress?: (done: number, total: number) => Effect.Effect<void>) {
    const started = yield* Clock.currentTimeMillis
    // The stream count, the live projection and the first page load together.
    const [totals, live, first] = yield* Effect.all([
      // Each stream's first event is its version 1: a count of those is the progress total, without the sort a
      // count of distinct stream ids takes (2 ms against 21 ms at 50,000 events).
      sql<{ streams: number }>`select count(*)::int as streams from events where version = 1`,
      rows.liveHoldings,
      fetchPage(["", 0])
    ], { concurrency: 3 })
    const totalStreams = totals[0]?.streams ?? 0
    const t: Tally = { live, failures: [], events: 0, done: 0, current: undefined }
    let page = first
    while (page.length > 0) {
      // The next batch loads while this one is checked: the fetch is started, and the check yields now and
      // then, so the query is sent and its rows are read while this page is hashed and replayed.
      const tail = page[page.length - 1]!
      const nextPage = yield* Effect.forkChild(fetchPage([tail.stream_id, tail.version]))
      yield* Effect.yieldNow
      for (let i = 0; i < page.length; i++) {
        if (i % YIELD_EVERY === YIELD_EVERY - 1) yield* Effect.yieldNow
        checkInto(t, page[i]!)
      }
      if (onProgress) yield* onProgress(t.done, totalStreams)
      page = yield* Fiber.join(nextPage)
    }
    if (t.current) finish(t, t.current)
    const cps = yield* allCheckpointFailures
    if (onProgress) yield* onProgress(t.done, totalStreams)
    const failures = perStream(t.failures, cps.failures)
    return {
      streams: t.done,
      events: t.events,
      checkpoints: cps.count,
      failures,
      seconds: ((yield* Clock.currentTimeMillis) - started) / 1000
    }
  })
}
