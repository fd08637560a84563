/**
 * The compact form of a tool's record, the one MCP gives (as structuredContent and as its JSON text); the HTTP
 * routes keep the SPEC's shape and full precision. Nothing is made up or lost that the record does not say
 * elsewhere:
 *
 * - numbers keep their meaningful digits: prices and rupee amounts to the paisa, ratios, percentages and yields
 *   to 4 significant digits, any other fraction to whichever of the two keeps more; integers, strings (every
 *   date), null and absent fields are left as they are, and a non-zero figure never rounds to 0;
 * - no field is printed twice: the ledger's `payload` (its `event`, word for word) and each event's `stream_id`
 *   (the record's) are left out, and so is a nested source's field equal to its item's (a news item's `url`
 *   and `published_at`, and a title that is the item's with the publisher after it): absent there means "the
 *   item's", not unknown; a long text repeated across a list's items (a face-value
 *   note) is given once in `shared_text` and each item says `see shared_text[n]`;
 * - a record's `sources` name each dataset and its as-of; the rest of the source record (who publishes it,
 *   when it was retrieved, where the recording is kept) is the resource psx://sources/{dataset}.
 *
 * `compactSchema` is the JSON Schema of the compact record, made from the route's result schema.
 */
type Json = { readonly [key: string]: unknown }

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value)

/** Figures read as ratios, percentages, yields or returns: 4 significant digits. */
const RATIO =
  /(pct|percent|ratio|yield|return|twr|xirr|cagr|beta|weight|rsi|volatility|growth|^pe$|^pb$|_pe$|^pe_|_pb$|multiple)/
/** Figures read as prices or rupee amounts: to the paisa. */
const MONEY =
  /(price|close|open|high|low|vwap|cost|_value$|^value_|amount|pnl|gross|^net|_net|tax|cash|eps|dps|level|market_cap|turnover|fees|worth|proceeds|gain|loss|dividends|per_share|sma|ema)/

/** Decimals that keep 4 significant digits of `x` (none past the units for |x| >= 1000). */
const significant = (x: number) => Math.max(0, 3 - Math.floor(Math.log10(Math.abs(x))))

const roundTo = (x: number, decimals: number) => {
  const rounded = Number(x.toFixed(Math.min(decimals, 100)))
  return rounded === 0 ? 0 : rounded
}

/** `x` with the digits its field means (`key`, and its record's key when `key` alone does not say). */
export const roundFigure = (x: number, key: string, parentKey = ""): number => {
  if (Number.isInteger(x) || !Number.isFinite(x)) return x
  const kind = RATIO.test(key)
    ? "ratio"
    : MONEY.test(key)
    ? "money"
    : RATIO.test(parentKey)
    ? "ratio"
    : MONEY.test(parentKey)
    ? "money"
    : "other"
  const decimals = kind === "ratio"
    ? significant(x)
    : kind === "money" && Math.abs(x) >= 0.01
    ? 2
    : Math.max(2, significant(x))
  const rounded = roundTo(x, decimals)
  // Never a non-zero figure shown as 0.
  return rounded === 0 ? roundTo(x, significant(x)) : rounded
}

const sameJson = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b)

/** Fields a list item leaves out when its record has the same value (besides a nested source's). */
const INHERITED: ReadonlyArray<string> = ["stream_id"]

/** Strings at least this long that repeat across a list's items are given once. */
const LONG_TEXT = 100

/** The source fields psx://sources/{dataset} gives (a record's sources keep dataset and as_of). */
const SOURCE_DETAIL = ["source", "retrieved_at", "recorded_in"] as const
const isDatasetSource = (value: unknown): value is Json =>
  isObject(value) && typeof value["dataset"] === "string" && typeof value["source"] === "string" &&
  typeof value["as_of"] === "string" && typeof value["retrieved_at"] === "string"

const compactSource = (source: Json): Json =>
  Object.fromEntries(Object.entries(source).filter(([k]) => !(SOURCE_DETAIL as ReadonlyArray<string>).includes(k)))

interface Walk {
  readonly shared: Array<string>
}

const shareRef = (walk: Walk, text: string) => {
  let index = walk.shared.indexOf(text)
  if (index < 0) index = walk.shared.push(text) - 1
  return `see shared_text[${index}]`
}

/** The long strings that occur under the same key in two or more of a list's items. */
const repeatedTexts = (items: ReadonlyArray<unknown>) => {
  const seen = new Map<string, number>()
  for (const item of items) {
    if (!isObject(item)) continue
    for (const [key, value] of Object.entries(item)) {
      if (typeof value === "string" && value.length >= LONG_TEXT) {
        const id = `${key}\u0000${value}`
        seen.set(id, (seen.get(id) ?? 0) + 1)
      }
    }
  }
  return new Set([...seen].filter(([, n]) => n > 1).map(([id]) => id))
}

/** A news source's title that is its item's title with the publisher's name after it. */
const isTitleOf = (item: Json, source: Json, key: string, value: unknown) =>
  key === "title" && typeof item["title"] === "string" && typeof source["publisher"] === "string" &&
  value === `${item["title"]} - ${source["publisher"]}`

const compactNode = (value: unknown, key: string, parent: Json | undefined, parentKey: string, walk: Walk): unknown => {
  if (typeof value === "number") return roundFigure(value, key, parentKey)
  if (Array.isArray(value)) {
    const repeated = repeatedTexts(value)
    return value.map((item) => {
      if (!isObject(item)) return compactNode(item, key, parent, parentKey, walk)
      if (key === "sources" && isDatasetSource(item)) return compactSource(item)
      const withRefs = Object.fromEntries(
        Object.entries(item).map(([k, v]) =>
          typeof v === "string" && repeated.has(`${k}\u0000${v}`) ? [k, shareRef(walk, v)] : [k, v]
        )
      )
      // A nested source leaves out what its item says (a news item's url); a ledger event its record's stream_id.
      const kept = Object.fromEntries(
        Object.entries(withRefs).filter(([k, v]) =>
          parent === undefined || !(key === "sources" || INHERITED.includes(k)) ||
          !(k in parent && sameJson(parent[k], v) || key === "sources" && isTitleOf(parent, item, k, v))
        )
      )
      return compactObject(kept, key, walk)
    })
  }
  if (isObject(value)) return compactObject(value, key, walk)
  return value
}

const compactObject = (record: Json, ownKey: string, walk: Walk): Json => {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(record)) {
    // The ledger's payload is its event, word for word.
    if (k === "payload" && "event" in record && sameJson(record["event"], v)) continue
    out[k] = compactNode(v, k, record, ownKey, walk)
  }
  return out
}

/** The compact form of a tool's record (see the module's comment). */
export const compactRecord = (record: object): Json => {
  const walk: Walk = { shared: [] }
  const out = compactObject(record as Json, "", walk)
  return walk.shared.length === 0 ? out : { ...out, shared_text: walk.shared }
}

type Mutable = Record<string, unknown>

const definitionOf = (node: unknown, root: Mutable): Mutable | undefined => {
  if (!isObject(node)) return undefined
  const ref = node["$ref"]
  if (typeof ref === "string" && ref.startsWith("#/$defs/")) {
    return definitionOf((root["$defs"] as Mutable | undefined)?.[ref.slice("#/$defs/".length)], root)
  }
  const members = node["anyOf"]
  if (Array.isArray(members)) {
    const objects = members.map((m) => definitionOf(m, root)).filter((m) => m?.["properties"] !== undefined)
    return objects.length === 1 ? objects[0] : undefined
  }
  return node as Mutable
}

const withoutRequired = (node: Mutable | undefined, names: ReadonlyArray<string>) => {
  if (node === undefined || !Array.isArray(node["required"])) return
  node["required"] = (node["required"] as ReadonlyArray<string>).filter((n) => !names.includes(n))
}

/** Relaxes one object schema for what compaction leaves out of it and of its lists' items. */
const relaxObject = (node: Mutable, root: Mutable) => {
  const properties = node["properties"] as Mutable
  if ("payload" in properties && "event" in properties) withoutRequired(node, ["payload"])
  if (["dataset", "source", "as_of", "retrieved_at"].every((k) => k in properties)) {
    withoutRequired(node, SOURCE_DETAIL)
  }
  for (const [name, field] of Object.entries(properties)) {
    const list = definitionOf(field, root)
    if (list?.["type"] !== "array") continue
    const item = definitionOf(list["items"], root)
    withoutRequired(item, name === "sources" ? Object.keys(properties) : INHERITED)
  }
}

const relaxAll = (node: unknown, root: Mutable) => {
  if (Array.isArray(node)) {
    for (const child of node) relaxAll(child, root)
    return
  }
  if (!isObject(node)) return
  if (isObject(node["properties"])) relaxObject(node as Mutable, root)
  for (const child of Object.values(node)) relaxAll(child, root)
}

/**
 * The JSON Schema of a compact record, from the route's result schema: the fields compaction may leave out are
 * not required, and `shared_text` and `data_through` are described. Every list's items keep their fields.
 */
export const compactSchema = (schema: Json): Json => {
  const root = JSON.parse(JSON.stringify(schema)) as Mutable
  relaxAll(root, root)
  const properties = (root["properties"] ?? {}) as Mutable
  root["properties"] = {
    ...properties,
    shared_text: {
      type: "array",
      items: { type: "string" },
      description: "Long texts repeated across the items, given once: an item's `see shared_text[n]` is the nth"
    },
    data_through: {
      type: "object",
      additionalProperties: { type: "string" },
      description: "The last day each dataset holds (dataset: YYYY-MM-DD), as the route's X-Data-Through header says"
    }
  }
  return root
}
