/**
 * Checking a stream's rows in version order, one row at a time, so a
 * verifier can stream a stream in batches and resume from a verified prefix:
 * the version follows, `prev_hash` is the previous hash, the hash recomputes
 * from the exact stored bytes, the stored JSON holds no key a schema does not
 * know, a format 1 row never follows a format 2 row, and `last_effective` is
 * the running latest effective date. Each good row yields the typed entry the
 * replay needs.
 */
import { GENESIS } from "../../../domain/ledger/Chain.ts"
import type { Entry } from "../../../domain/ledger/Decider.ts"
import type { VerifyResult } from "../../../domain/ledger/Schemas.ts"
import { sha256 } from "./EventStore.ts"
import { type EventRow, hashInput, readPayload } from "./StoredRows.ts"

export type Failure = NonNullable<typeof VerifyResult.Type["first_failure"]>

/** Where a verified prefix of a stream ends. */
export interface Verified {
  readonly version: number
  readonly hash: string
  readonly last_effective: string
  /** Whether a format 2 row was seen (a format 1 row after it is a downgrade). */
  readonly exact: boolean
}
export const NOTHING_VERIFIED: Verified = { version: 0, hash: GENESIS, last_effective: "", exact: false }

/** The failure `row` shows. */
const failAt = (row: EventRow, reason: string) => ({
  _tag: "Fail" as const,
  failure: { event_id: row.event_id, version: row.version, position: Number(row.position), reason }
})

/**
 * Checks `row` after the prefix `at`: the next prefix and the row's entry, or
 * the failure it shows. With `decode` false only the bytes are checked (the
 * chain, the format, `last_effective`) and no entry is made: any change to a
 * stored byte still breaks the hash.
 */
export const checkRow = (at: Verified, row: EventRow, decode = true):
  | { readonly _tag: "Ok"; readonly at: Verified; readonly entry: Entry | undefined }
  | { readonly _tag: "Fail"; readonly failure: Failure } =>
{
  const expected = at.version + 1
  if (row.version !== expected) {
    return failAt(row, `version ${row.version} where ${expected} was expected (a gap or a reorder)`)
  }
  if (row.prev_hash !== at.hash) return failAt(row, "prev_hash does not match the previous event's hash")
  const exact = row.payload_json !== null
  if (at.exact && !exact) {
    return failAt(row, "a format 1 row (payload not hashed byte for byte) after format 2 rows: a downgrade")
  }
  if (sha256(hashInput(at.hash, row)) !== row.hash) {
    return failAt(row, "the stored hash does not match the event's content: it was altered")
  }
  const read = decode ? readPayload(row) : undefined
  if (read !== undefined && "problem" in read) return failAt(row, read.problem)
  const lastEffective = row.effective_date > at.last_effective ? row.effective_date : at.last_effective
  if (row.last_effective !== lastEffective) {
    return failAt(
      row,
      `last_effective ${row.last_effective} where the stream's latest effective date is ${lastEffective}`
    )
  }
  return {
    _tag: "Ok",
    at: { version: row.version, hash: row.hash, last_effective: lastEffective, exact: at.exact || exact },
    entry: read &&
      { event_id: row.event_id, version: row.version, effective_date: row.effective_date, event: read.event }
  }
}
