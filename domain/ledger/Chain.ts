/**
 * The hash chain's canonical encoding. Each event's hash is SHA-256 over the
 * previous hash of its stream and a canonical JSON of its identity and
 * content (keys sorted at every depth, no white space), so any change to a
 * stored event — or a reordering — breaks the chain from that event on.
 *
 * Format 2 (`chainInputV2`, every event since migration 0013) splices the
 * stored payload and metadata texts in verbatim: the hash covers the exact
 * stored bytes, whatever the payload's Schema. Format 1 (`chainInput`)
 * re-encoded the decoded payload and left the metadata out.
 */

export const GENESIS = "0".repeat(64)

const quoteKey = (k: string) => JSON.stringify(k) + ":"

/** JSON with object keys sorted at every depth and no white space (undefined values left out). */
export const canonicalJson = (value: unknown): string => {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value)
    case "number":
      return Number.isFinite(value) ? String(value) : "null"
    case "boolean":
      return value ? "true" : "false"
    case "object": {
      if (value === null) return "null"
      if (Array.isArray(value)) {
        let out = "["
        for (let i = 0; i < value.length; i++) {
          out += (i > 0 ? "," : "") + canonicalJson(value[i] === undefined ? null : value[i])
        }
        return out + "]"
      }
      const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      let out = "{"
      let first = true
      for (const [k, v] of entries) {
        if (v === undefined || typeof v === "function") continue
        out += (first ? "" : ",") + quoteKey(k) + canonicalJson(v)
        first = false
      }
      return out + "}"
    }
    default:
      return "null"
  }
}

export interface ChainFields {
  readonly stream_id: string
  readonly version: number
  readonly event_id: string
  readonly effective_date: string
  readonly recorded_at: string
  readonly payload: unknown
}

/** The text that is hashed for one event: the previous hash, then the canonical JSON of the event's fields. */
export const chainInput = (prevHash: string, f: ChainFields) =>
  // Keys written in sorted order by hand: the same text as canonicalJson of the record, without sorting it.
  `${prevHash}\n{"effective_date":${JSON.stringify(f.effective_date)},"event_id":${JSON.stringify(f.event_id)},` +
  `"payload":${canonicalJson(f.payload)},"recorded_at":${JSON.stringify(f.recorded_at)},` +
  `"stream_id":${JSON.stringify(f.stream_id)},"version":${canonicalJson(f.version)}}`

/** The chain formats: 1 hashed a re-encoding of the decoded payload; 2 hashes the exact stored bytes. */
export type ChainFormat = 1 | 2

/** An event as chain format 2 stores it: its payload and metadata as the exact canonical JSON text. */
export interface StoredChainFields {
  readonly stream_id: string
  readonly version: number
  readonly event_id: string
  readonly effective_date: string
  readonly recorded_at: string
  /** The payload's canonical JSON, byte for byte as stored. */
  readonly payload_json: string
  /** The metadata's canonical JSON (actor, the server's request id, the client's, idempotency key), as stored. */
  readonly metadata_json: string
}

/**
 * Format 2: the previous hash, then the canonical JSON of the record with the
 * stored payload and metadata texts spliced in verbatim, so the hash covers
 * the exact stored bytes, the actor and the request ids, and nothing is
 * re-encoded to check it.
 */
export const chainInputV2 = (prevHash: string, f: StoredChainFields) =>
  `${prevHash}\n{"effective_date":${quoted(f.effective_date)},"event_id":${quoted(f.event_id)},` +
  `"metadata":${f.metadata_json},"payload":${f.payload_json},"recorded_at":${quoted(f.recorded_at)},` +
  `"stream_id":${quoted(f.stream_id)},"version":${f.version}}`

/**
 * Characters after which JSON.stringify may not quote a string as it is: quote, backslash, controls, and any
 * surrogate code unit (a lone one is escaped; a paired one is not, and JSON.stringify then says which). Matched
 * by code unit, without the `u` flag, which is the quicker scan of a plain id or date.
 */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/
/** A string as JSON, byte for byte what JSON.stringify gives (a plain id or date is quoted as it is, the common case). */
const quoted = (s: string) => (NEEDS_ESCAPE.test(s) ? JSON.stringify(s) : `"${s}"`)
