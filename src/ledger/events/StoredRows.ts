/**
 * Event rows as the store holds them, and what can be checked of one row on
 * its own: the hash input over its exact stored bytes, keys the schemas do
 * not know, and the typed event.
 *
 * Rows are typed by their SQL casts (`COLUMNS`) and checked field by field,
 * not decoded through a Schema: the verifier reads hundreds of thousands of
 * them. The payload is parsed once, checked for unknown keys, and checked by
 * its event type's Schema once.
 */
import { Effect, Schema, SchemaAST } from "effect"
import { SchemaJITCompiler } from "effect/schema"
import { canonicalJson, chainInput, chainInputV2 } from "../../../domain/ledger/Chain.ts"
import { LedgerEvent, type StoredEvent } from "../../../domain/ledger/Events.ts"
import { iso } from "../../db/Rows.ts"

/** The columns `EventRow` holds. */
export const COLUMNS = `position::text AS position, stream_id, version, event_id, ${iso("recorded_at")} AS recorded_at,
  effective_date::text AS effective_date, last_effective::text AS last_effective, payload_json, metadata_json,
  payload::text AS payload_v1, metadata::text AS metadata_v1, prev_hash, hash, txn::text AS tx`

/** One stored event row. Format 2 rows hold `payload_json`/`metadata_json`; format 1 rows the jsonb forms. */
export interface EventRow {
  readonly position: string
  readonly stream_id: string
  readonly version: number
  readonly event_id: string
  readonly recorded_at: string
  readonly effective_date: string
  readonly last_effective: string
  readonly payload_json: string | null
  readonly metadata_json: string | null
  readonly payload_v1: string | null
  readonly metadata_v1: string | null
  readonly prev_hash: string
  readonly hash: string
  readonly tx: string
}

const isText = (v: unknown): v is string => typeof v === "string"
const isTextOrNull = (v: unknown) => v === null || typeof v === "string"

const isEventRow = (r: any): r is EventRow =>
  typeof r === "object" && r !== null && isText(r.position) && isText(r.stream_id) && Number.isInteger(r.version) &&
  isText(r.event_id) && isText(r.recorded_at) && isText(r.effective_date) && isText(r.last_effective) &&
  isTextOrNull(r.payload_json) && isTextOrNull(r.metadata_json) && isTextOrNull(r.payload_v1) &&
  isTextOrNull(r.metadata_v1) && isText(r.prev_hash) && isText(r.hash) && isText(r.tx)

/** Rows selected with `COLUMNS`; a row of another shape is a defect of the store. */
export const eventRows = (rows: ReadonlyArray<unknown>): Effect.Effect<ReadonlyArray<EventRow>> => {
  const bad = rows.findIndex((r) => !isEventRow(r))
  return bad === -1
    ? Effect.succeed(rows as ReadonlyArray<EventRow>)
    : Effect.die(new Error(`event row ${bad} does not have the stored shape: ${JSON.stringify(rows[bad])}`))
}

/** The text hashed for a row, from its exact stored bytes (format 2) or the format 1 re-encoding. */
export const hashInput = (prev: string, r: EventRow): string =>
  r.payload_json !== null && r.metadata_json !== null
    ? chainInputV2(prev, r as EventRow & { readonly payload_json: string; readonly metadata_json: string })
    : r.payload_json !== null
    ? chainInputV2(prev, { ...r, payload_json: r.payload_json, metadata_json: "null" })
    : chainInput(prev, { ...r, payload: JSON.parse(r.payload_v1 ?? "null") })

// Checked by the compiler: the event Schemas' encoded form is their type (a transformation would not compile here).
type SameShape<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
export const EVENTS_STORED_AS_TYPED: SameShape<typeof LedgerEvent.Encoded, LedgerEvent> = true

/**
 * Each event type's Schema: the keys it declares, and its check (a payload is checked by its own type's
 * member, not tried against the union). The event Schemas transform nothing (EVENTS_STORED_AS_TYPED), so
 * a payload that passes its member's check is that event as it is, and no copy is decoded.
 */
const members = new Map(
  LedgerEvent.members.map((m) => {
    // Effect's schema JIT compiles the member's check to one function (a quarter of the interpreted guard's time;
    // where `new Function` is refused it stays interpreted). Enabled before the guard is made, so the guard uses it.
    SchemaJITCompiler.enable(SchemaAST.toType(m.ast))
    return [String(m.fields.type.literal), {
      keys: new Set(Object.keys(m.fields)) as ReadonlySet<string>,
      is: Schema.is(m as Schema.Codec<LedgerEvent>)
    }]
  })
)
/** The metadata keys the service writes (format 1 rows also hold `causation_id`; an accepted entitlement writes it and `source`). */
export const METADATA_KEYS: ReadonlySet<string> = new Set([
  "actor_key_id",
  "request_id",
  "client_request_id",
  "causation_id",
  "idempotency_key",
  "source"
])

/** Adds the keys of `record` that `known` does not hold, named with `prefix`, to `extra` (made when one is found). */
const unknownKeys = (record: object, known: ReadonlySet<string>, prefix: string, extra: Array<string> | undefined) => {
  for (const k in record) if (!known.has(k)) (extra ??= []).push(`${prefix}${k}`)
  return extra
}

/** A row's payload and metadata parsed and checked: the typed event, or why the stored JSON is not one. */
export const readPayload = (
  r: EventRow
): { readonly event: LedgerEvent; readonly metadata: unknown } | { readonly problem: string } => {
  let payload: unknown
  let metadata: unknown
  try {
    payload = JSON.parse(r.payload_json ?? r.payload_v1 ?? "null")
    metadata = JSON.parse(r.metadata_json ?? r.metadata_v1 ?? "{}")
  } catch {
    return { problem: "the stored JSON does not parse" }
  }
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) {
    return { problem: "the stored payload is not an object" }
  }
  const member = members.get(String((payload as { type?: unknown }).type))
  if (member === undefined) {
    return { problem: `the stored payload has an unknown type ${JSON.stringify((payload as { type?: unknown }).type)}` }
  }
  let extra = unknownKeys(payload, member.keys, "", undefined)
  if (typeof metadata === "object" && metadata !== null) {
    extra = unknownKeys(metadata, METADATA_KEYS, "metadata.", extra)
  }
  if (extra !== undefined) return { problem: `the stored JSON holds keys no schema knows: ${extra.join(", ")}` }
  return member.is(payload)
    ? { event: payload, metadata }
    : { problem: "the stored payload is not a valid event of its type" }
}

/** A stored event with the transaction that wrote it (the catch-up order). */
export type StoredRowEvent = StoredEvent & { readonly tx: string }

/** A row as a stored event; a payload that does not read is a defect of the store. */
export const toStored = (r: EventRow): StoredRowEvent => {
  const read = readPayload(r)
  if ("problem" in read) throw new Error(`event ${r.event_id} (${r.stream_id} v${r.version}): ${read.problem}`)
  return {
    position: Number(r.position),
    stream_id: r.stream_id,
    version: r.version,
    event_id: r.event_id,
    recorded_at: r.recorded_at,
    effective_date: r.effective_date,
    event: read.event,
    prev_hash: r.prev_hash,
    hash: r.hash,
    tx: r.tx
  }
}

/** An export record of a row: the fields the chain covers, the payload and metadata as stored (no metadata: format 1). */
export const exportRecord = (r: EventRow) => ({
  stream_id: r.stream_id,
  version: r.version,
  event_id: r.event_id,
  position: Number(r.position),
  recorded_at: r.recorded_at,
  effective_date: r.effective_date,
  event: JSON.parse(r.payload_json ?? r.payload_v1 ?? "null"),
  metadata: r.payload_json !== null ? JSON.parse(r.metadata_json ?? "null") : undefined,
  prev_hash: r.prev_hash,
  hash: r.hash
})

/** An export line (NDJSON) of a row: its export record in canonical JSON. */
export const exportLine = (r: EventRow) => canonicalJson(exportRecord(r))

/** Stored events from rows selected with `COLUMNS`; a row that does not read is a defect of the store. */
export const decodeStored = (rows: ReadonlyArray<unknown>): Effect.Effect<ReadonlyArray<StoredRowEvent>> =>
  Effect.flatMap(
    eventRows(rows),
    (typed) => Effect.try({ try: () => typed.map(toStored), catch: (e) => e }).pipe(Effect.orDie)
  )

/** Rough bytes a row holds in memory (for the byte-bounded stream cache). */
export const rowBytes = (r: EventRow) => 400 + 2 * (r.payload_json ?? r.payload_v1 ?? "").length
