/**
 * What a verify recomputes from a stream's entries, pure: the positions a
 * replay gives (with the decision rules re-run for a portfolio stream), the
 * positions after in-order entries on top of a verified prefix, and which
 * signed checkpoints do not hold against the stored chain.
 */
import { checkpointProblem, type SignedCheckpoint } from "../../../domain/ledger/Checkpoint.ts"
import { type Entry, type Position, replay } from "../../../domain/ledger/Decider.ts"
import { applyTrade, bookOf, positionOf } from "../../../domain/ledger/Replay.ts"
import { checkAndReplay } from "../../../domain/ledger/ReplayCheck.ts"
import { isPortfolioStream } from "../../../domain/ledger/Streams.ts"
import type { SignatureCheck } from "../signing/Signing.ts"
import type { Failure, Verified } from "./ChainCheck.ts"

/** The positions a replay of `entries` gives (sorted by symbol), or undefined when a quantity went negative. */
const replayed = (entries: ReadonlyArray<Entry>): ReadonlyArray<Position> | undefined => {
  const r = replay(entries)
  return r._tag === "Ok" ? [...r.state.values()].sort((a, b) => a.symbol.localeCompare(b.symbol)) : undefined
}

/** Entries that apply to verified positions without the stream's history: in-order trades, donations, tax status. */
export const incremental = (e: Entry, since: string) =>
  e.event.type === "DonationRecorded" || e.event.type === "TaxStatusRecorded" ||
  (e.event.type === "TradeRecorded" && e.effective_date >= since)

/** Kept positions after in-order entries (each `incremental`), sorted by symbol. */
export const positionsAfter = (
  positions: ReadonlyMap<string, Position>,
  _at: Verified,
  entries: ReadonlyArray<Entry>
) => {
  const next = new Map(positions)
  for (const { event } of entries) {
    if (event.type === "TradeRecorded") {
      next.set(event.symbol, positionOf(event.symbol, applyTrade(bookOf(next.get(event.symbol)), event)))
    }
  }
  return [...next.values()].sort((a, b) => a.symbol.localeCompare(b.symbol))
}

/** A full replay: the positions (absent when the stream does not replay), or a decision failure. */
export interface Replayed {
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
  return {
    failure: {
      event_id: f.event_id,
      version: f.version,
      position: positionAt(f.version),
      reason: `decision: ${f.reason}`
    }
  }
}

/** Positions a stream's events replay to: with the decision rules for a portfolio stream, else the plain replay. */
export const replayStream = (
  streamId: string,
  entries: ReadonlyArray<Entry>,
  positionAt: (version: number) => number
): Replayed => isPortfolioStream(streamId) ? decidedReplay(entries, positionAt) : { positions: replayed(entries) }

/** A checkpoint whose key is not trusted or whose signature does not hold: a problem of the checkpoint, not of an event. */
export interface CheckpointIssue {
  readonly kind: "key" | "signature"
  readonly key_id: string
  readonly version: number
  readonly reason: string
}

/**
 * Checkpoints that do not hold: one whose events do not reach its head as a verify failure at the event of its
 * version; one with an untrusted key or a bad signature as a checkpoint issue (it says nothing about the events).
 */
export const checkpointFailures = (
  checkpoints: ReadonlyArray<SignedCheckpoint>,
  hashes: ReadonlyMap<string, { readonly hash: string; readonly event_id: string; readonly position: number }>,
  check: SignatureCheck
) =>
  checkpoints.flatMap(
    (c): Array<{ readonly stream_id: string; readonly failure?: Failure; readonly issue?: CheckpointIssue }> => {
      const at = (v: number) => hashes.get(`${c.stream_id}/${v}`)
      const problem = checkpointProblem(c, (v) => at(v)?.hash, check)
      if (problem === undefined) return []
      if (problem.kind !== "chain") {
        return [{
          stream_id: c.stream_id,
          issue: { kind: problem.kind, key_id: c.key_id, version: c.version, reason: `checkpoint: ${problem.reason}` }
        }]
      }
      const e = at(c.version)
      return [{
        stream_id: c.stream_id,
        failure: {
          event_id: e?.event_id ?? "",
          version: c.version,
          position: e?.position ?? 0,
          reason: `checkpoint: ${problem.reason}`
        }
      }]
    }
  )
