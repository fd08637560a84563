/**
 * The hash chain's canonical encoding. Each event's hash is SHA-256 over the
 * previous hash of its stream and a canonical JSON of its identity and
 * content (keys sorted at every depth, no white space), so any change to a
 * stored event — or a reordering — breaks the chain from that event on.
 */

export const GENESIS = "0".repeat(64)

/** JSON with object keys sorted at every depth. */
export const canonicalJson = (value: unknown): string => {
  if (value === null || typeof value !== "object") return JSON.stringify(value)
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`
  const keys = Object.keys(value as Record<string, unknown>).filter((k) => (value as Record<string, unknown>)[k] !== undefined).sort()
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(",")}}`
}

export interface ChainFields {
  readonly stream_id: string
  readonly version: number
  readonly event_id: string
  readonly effective_date: string
  readonly recorded_at: string
  readonly payload: unknown
}

/** The text that is hashed for one event. */
export const chainInput = (prevHash: string, f: ChainFields) =>
  `${prevHash}\n${canonicalJson({
    stream_id: f.stream_id,
    version: f.version,
    event_id: f.event_id,
    effective_date: f.effective_date,
    recorded_at: f.recorded_at,
    payload: f.payload
  })}`
