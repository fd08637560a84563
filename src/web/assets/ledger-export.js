// @ts-check
// The ledger page's export, in the format `ledger export` writes: one event a
// line (oldest first) as the canonical JSON of the fields its hash covers,
// then {"checkpoint": …} with a fresh signed checkpoint of the head. Such a
// file checks offline with docs/verify-ledger.mjs and the service's public
// key. No DOM and no globals: the page passes its API call in, and the same
// code runs under Node in the tests.

/**
 * Canonical JSON: keys sorted at every depth, no white space (as the service hashes and `ledger export` writes).
 * @param {unknown} v
 * @returns {string}
 */
export const canonical = (v) => {
  if (v === null || typeof v === "boolean") return JSON.stringify(v)
  if (typeof v === "number") return Number.isFinite(v) ? String(v) : "null"
  if (typeof v === "string") return JSON.stringify(v)
  if (Array.isArray(v)) return `[${v.map((x) => canonical(x === undefined ? null : x)).join(",")}]`
  if (typeof v === "object") {
    const o = /** @type {Record<string, unknown>} */ (v)
    const keys = Object.keys(o).filter((k) => o[k] !== undefined).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`).join(",")}}`
  }
  return "null"
}

/**
 * An item of GET /v1/me/ledger as its export line (the listing's own `type` and `payload` left out).
 * @param {{ stream_id: string, version: number, event_id: string, position: number, recorded_at: string,
 *   effective_date: string, event: unknown, metadata?: unknown, prev_hash: string, hash: string }} e
 */
export const exportLine = (e) =>
  canonical({
    stream_id: e.stream_id,
    version: e.version,
    event_id: e.event_id,
    position: e.position,
    recorded_at: e.recorded_at,
    effective_date: e.effective_date,
    event: e.event,
    metadata: e.metadata,
    prev_hash: e.prev_hash,
    hash: e.hash
  })

/** @typedef {(path: string) => Promise<{ status: number, ok: boolean, body: any }>} Get */

/**
 * The whole ledger as export text, read through `get` (the page's API call): a fresh checkpoint, then every page of
 * the listing. `checkpoint` is undefined when the ledger is empty (the service answers 404).
 * @param {Get} get
 */
export const ledgerExport = async (get) => {
  // The checkpoint first: every event it covers is then among those read after it (events appended meanwhile are
  // exported too; their chain is checked, they are only newer than the checkpoint).
  const checkpoint = await get("/v1/me/ledger/checkpoint")
  if (!checkpoint.ok && checkpoint.status !== 404) return { ok: /** @type {const} */ (false), reply: checkpoint }
  /** @type {any[]} */
  const items = []
  let cursor = null
  for (let page = 0; page < 1000; page++) {
    const query = new URLSearchParams({ limit: "1000" })
    if (cursor) query.set("cursor", cursor)
    const reply = await get(`/v1/me/ledger?${query}`)
    if (!reply.ok) return { ok: /** @type {const} */ (false), reply }
    items.push(...reply.body.items)
    cursor = reply.body.next_cursor
    if (!cursor) break
  }
  items.sort((a, b) => a.version - b.version)
  const lines = items.map(exportLine)
  if (checkpoint.ok) lines.push(canonical({ checkpoint: checkpoint.body }))
  return {
    ok: /** @type {const} */ (true),
    events: items.length,
    checkpoint: checkpoint.ok ? /** @type {{ version: number }} */ (checkpoint.body) : undefined,
    text: lines.join("\n") + "\n"
  }
}
