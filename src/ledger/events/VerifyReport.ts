/**
 * What `ledger verify` prints for a whole-ledger verify: the totals, one
 * FAIL line per stream that does not verify (its first failure, naming the
 * event when the store holds one at that version), and the closing verdict
 * with the number of streams — never the number of failures, which can be
 * several for one stream. Pure, so the output is tested without a terminal.
 */
import type { VerifyResult } from "../../../domain/ledger/Schemas.ts"

type Verify = typeof VerifyResult.Type

/** The result of `Audit.verifyAll` as the report reads it. */
export interface VerifyAllResult {
  readonly streams: number
  readonly events: number
  readonly checkpoints: number
  readonly failures: ReadonlyArray<Verify>
  readonly seconds: number
}

/** Where a failure is: the event and its ledger position, or only the version when no event is stored there. */
const where = (f: NonNullable<Verify["first_failure"]>) =>
  f.event_id === ""
    ? `version ${f.version} (no event is stored at that version)`
    : `event ${f.event_id} (version ${f.version}, position ${f.position})`

/** The report's lines, and the error it ends with when any stream fails. */
export const verifyReport = (
  r: VerifyAllResult
): { readonly lines: ReadonlyArray<string>; readonly error?: string } => {
  const lines = [
    `${r.streams} streams, ${r.events} events and ${r.checkpoints} signed checkpoints verified in ${
      r.seconds.toFixed(2)
    } s`
  ]
  for (const f of r.failures) {
    lines.push(`FAIL ${f.stream_id}: ${
      f.first_failure
        ? `${where(f.first_failure)}: ${f.first_failure.reason}`
        : f.checkpoint_problem
        ? `the checkpoint at version ${f.checkpoint_problem.version} (a ${f.checkpoint_problem.kind} problem, not a changed event): ${f.checkpoint_problem.reason}`
        : "the live projection differs from a replay"
    }`)
  }
  const failing = new Set(r.failures.map((f) => f.stream_id)).size
  if (failing > 0) return { lines, error: `${failing} stream(s) do not verify` }
  return {
    lines: [
      ...lines,
      "OK: every hash chain verifies, every projection equals its replay, every checkpoint holds under the pinned keys"
    ]
  }
}
