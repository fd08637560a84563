/**
 * What `tools/list` says of each tool, kept affordable for an agent's context
 * :
 *
 * - inputSchema: the route's argument Schema as JSON Schema, with every
 *   sub-schema that occurs more than once (a bounded number, a nullable date)
 *   defined once under `$defs` and referenced (`$ref`, JSON Schema 2020-12; a
 *   sibling `description` keeps each argument's own text);
 * - outputSchema: the result's outline, its top-level fields with their JSON
 *   types and which are required. Every result still conforms to it, and hosts
 *   validate against it; the complete schema of each result is the resource
 *   `psx://schemas/{tool}` (Resources.ts) and the route's in /openapi.json.
 *
 * Pure functions over JSON Schema values.
 */

type Json = { readonly [key: string]: unknown }

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value)

/** A sub-schema is worth sharing when its JSON (without its description) is at least this long. */
const SHARE_MIN_CHARS = 40

const withoutDescription = (node: Json): Json => {
  const { description: _description, ...rest } = node
  return rest
}

const keyOf = (node: Json) => JSON.stringify(withoutDescription(node))

/** Counts each sub-schema below the root's properties, keyed by its JSON without description. */
const countShapes = (node: unknown, counts: Map<string, number>, root: boolean) => {
  if (Array.isArray(node)) {
    for (const child of node) countShapes(child, counts, false)
    return
  }
  if (!isObject(node)) return
  if (!root && node["$ref"] === undefined) {
    const key = keyOf(node)
    if (key.length >= SHARE_MIN_CHARS) counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  for (const [name, child] of Object.entries(node)) {
    if (name !== "$defs") countShapes(child, counts, false)
  }
}

const nameFor = (shape: Json, taken: Set<string>) => {
  const members = Array.isArray(shape["anyOf"]) ? shape["anyOf"] as Array<Json> : undefined
  const base = members !== undefined
    ? `Nullable${String(members.find((m) => m["type"] !== "null")?.["type"] ?? "Value")}`
    : String(shape["type"] ?? "Value")
  const stem = base.replace(/(^|Nullable)([a-z])/g, (_, head: string, c: string) => head + c.toUpperCase())
  let name = stem
  for (let i = 2; taken.has(name); i++) name = `${stem}${i}`
  taken.add(name)
  return name
}

/** The input schema with each repeated sub-schema defined once under `$defs`. */
export const shareDefinitions = (schema: Json): Json => {
  const counts = new Map<string, number>()
  countShapes(schema, counts, true)
  const existing = isObject(schema["$defs"]) ? schema["$defs"] : {}
  const taken = new Set(Object.keys(existing))
  const shared = new Map<string, string>()
  const defs: Record<string, unknown> = { ...existing }
  for (const [key, count] of counts) {
    if (count < 2) continue
    const shape = JSON.parse(key) as Json
    const name = nameFor(shape, taken)
    shared.set(key, name)
    defs[name] = shape
  }
  if (shared.size === 0) return schema
  const replace = (node: unknown, root: boolean): unknown => {
    if (Array.isArray(node)) return node.map((child) => replace(child, false))
    if (!isObject(node)) return node
    const name = root ? undefined : shared.get(keyOf(node))
    if (name !== undefined) {
      return node["description"] === undefined
        ? { $ref: `#/$defs/${name}` }
        : { $ref: `#/$defs/${name}`, description: node["description"] }
    }
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, k === "$defs" ? v : replace(v, false)]))
  }
  const replaced = replace(schema, true) as Json
  // A shape shared only inside other shared shapes ends up unreferenced: keep the referenced definitions.
  const used = Object.fromEntries(
    Object.entries(defs).filter(([name]) => JSON.stringify({ ...replaced, $defs: defs }).includes(`"#/$defs/${name}"`))
  )
  return { ...replaced, $defs: used }
}

/** The first sentences of a text, up to `max` characters (the whole text when it is short enough). */
export const sentences = (text: string, max: number) => {
  if (text.length <= max) return text
  const cut = text.slice(0, max)
  const end = Math.max(cut.lastIndexOf(". "), cut.lastIndexOf("; "))
  return end > 0 ? `${cut.slice(0, end + 1)} …` : `${cut} …`
}

/** A schema whose every `description` is cut to its first sentences within `max` characters (the full ones: /openapi.json). */
export const shortDescriptions = (node: unknown, max: number): unknown => {
  if (Array.isArray(node)) return node.map((child) => shortDescriptions(child, max))
  if (!isObject(node)) return node
  return Object.fromEntries(
    Object.entries(node).map((
      [k, v]
    ) => [k, k === "description" && typeof v === "string" ? sentences(v, max) : shortDescriptions(v, max)])
  )
}

/**
 * An argument schema without its `null` alternatives (`anyOf: [X, {type: null}]` is X, its description kept): an
 * optional argument is left out, and a null one is taken as left out.
 */
export const withoutNull = (node: unknown): unknown => {
  if (Array.isArray(node)) return node.map(withoutNull)
  if (!isObject(node)) return node
  const members = node["anyOf"]
  if (Array.isArray(members) && members.length === 2) {
    const kept = members.filter((m) => !(isObject(m) && m["type"] === "null" && Object.keys(m).length === 1))
    if (kept.length === 1 && isObject(kept[0])) {
      const { anyOf: _anyOf, ...rest } = node
      return withoutNull({ ...kept[0], ...rest })
    }
  }
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, withoutNull(v)]))
}

/** A sub-schema with `$ref` resolved against the root's `$defs` (one level), and `anyOf` with null dropped. */
const resolved = (node: unknown, defs: Json): Json | undefined => {
  if (!isObject(node)) return undefined
  const ref = node["$ref"]
  if (typeof ref === "string" && ref.startsWith("#/$defs/")) return resolved(defs[ref.slice("#/$defs/".length)], defs)
  const members = node["anyOf"]
  if (Array.isArray(members)) {
    const kept = members.filter((m) => !(isObject(m) && m["type"] === "null"))
    return kept.length === 1 ? resolved(kept[0], defs) : node
  }
  return node
}

/** The fields every item of a list of records has (its required fields), or undefined when its items are not records. */
const itemFields = (field: unknown, defs: Json): ReadonlyArray<string> | undefined => {
  const list = resolved(field, defs)
  if (list?.["type"] !== "array") return undefined
  const item = resolved(list["items"], defs)
  return item !== undefined && Array.isArray(item["required"]) ? item["required"] as Array<string> : undefined
}

/**
 * The outline of an output schema: its top-level fields by name (required ones listed as such), and for each
 * list of records the fields every item has. Every result conforms to it; the complete schema is
 * psx://schemas/{tool}.
 */
export const outline = (schema: Json): Json => {
  const defs = isObject(schema["$defs"]) ? schema["$defs"] : {}
  const properties = isObject(schema["properties"]) ? schema["properties"] : {}
  const fields = Object.fromEntries(
    Object.entries(properties).map(([name, field]) => {
      const items = itemFields(field, defs)
      return [name, items === undefined || items.length === 0 ? {} : { type: "array", items: { required: items } }]
    })
  )
  return {
    type: "object",
    properties: fields,
    ...(Array.isArray(schema["required"]) ? { required: schema["required"] } : {})
  }
}

/** The number of bytes of a value's JSON (UTF-8). */
export const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value), "utf8")

/** The words of arguments many tools take, said once the same short way (their full text: /openapi.json). */
const COMMON_ARGUMENTS: Readonly<Record<string, string>> = {
  symbol: "PSX ticker (any case)",
  sym: "PSX ticker (any case)",
  cursor: "next_cursor of the previous page"
}

/** Shorter words for argument texts that restate their schema or run long (matched by their opening). */
const SHORTER: ReadonlyArray<readonly [RegExp, string]> = [
  [/^A PSX sector code/, "Sector code (0807), slug (commercial-banks) or name"],
  [/^An entitlement id/, "An entitlement's id (ent-…) from get_entitlements"],
  [/^A named window counted back from the newest row/, "Window back from the newest row"],
  [/^A named window counted back from the last recorded close/, "Window back from the last recorded close"],
  [/^Security types: /, "Security types"],
  [/^Page size, \d+ to \d+; default (\d+)$/, "Page size; default $1"]
]

/**
 * An input schema as listed: each common argument with its short words, without `additionalProperties: true`
 * (the default) anywhere, and without the root's `additionalProperties: false`: a tool refuses an argument it
 * does not take when called, naming the ones it takes (RouteTools.ts), so the listing need not say it.
 */
export const plainArguments = (schema: Json): Json => {
  const strip = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(strip)
    if (!isObject(node)) return node
    return Object.fromEntries(
      Object.entries(node).filter(([k, v]) => !(k === "additionalProperties" && v === true)).map((
        [k, v]
      ) => [k, strip(v)])
    )
  }
  const { additionalProperties: _closed, ...stripped } = strip(schema) as Json
  const properties = isObject(stripped["properties"]) ? stripped["properties"] : {}
  return {
    ...stripped,
    properties: Object.fromEntries(
      Object.entries(properties).map(([name, field]) => {
        if (!isObject(field)) return [name, field]
        const said = typeof field["description"] === "string" ? field["description"] : ""
        const shorter = SHORTER.find(([opening]) => opening.test(said))
        const words = COMMON_ARGUMENTS[name] ??
          (shorter === undefined ? undefined : said.replace(new RegExp(`${shorter[0].source}[\\s\\S]*$`), shorter[1]))
        return [name, words === undefined ? field : { ...field, description: words }]
      })
    )
  }
}
