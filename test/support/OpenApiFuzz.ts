/**
 * Request generators for the fuzz suite, derived from the service's own
 * OpenAPI document (and the MCP tools' input schemas): each operation's
 * parameters and body become fast-check arbitraries that mostly follow the
 * declared JSON Schema and are mixed, at every leaf, with hostile values.
 * Nothing here knows an endpoint by name: a new operation is fuzzed as soon
 * as it is served.
 */
import fc from "fast-check"

/** A JSON number written as-is (1e999, -0, a 400-digit integer), which JSON.stringify cannot produce. */
export class RawNumber {
  readonly text: string
  constructor(text: string) {
    this.text = text
  }
}

/** JSON text for a generated value; RawNumber leaves go out verbatim. */
export const toJson = (value: unknown): string => {
  if (value instanceof RawNumber) return value.text
  if (Array.isArray(value)) return `[${value.map(toJson).join(",")}]`
  if (value !== null && typeof value === "object") {
    return `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}:${toJson(v)}`).join(",")}}`
  }
  return JSON.stringify(value) ?? "null"
}

/** Strings an attacker or a broken client sends. Lone surrogates are sent percent-encoded (%ED%A0%80) in URLs. */
export const hostileStrings: ReadonlyArray<string> = [
  "",
  " ",
  "\u0000",
  "HUBC\u0000",
  "\u0000\u0000\u0000",
  "x".repeat(70_000),
  "A".repeat(17),
  "\u202eCBUH",
  "\ud83d\udcc8\ud83d\udcb8",
  "\ud800",
  "\udfff",
  "ＨＵＢＣ",
  "hubc",
  "../../../../etc/passwd",
  "..%2F..%2Fetc%2Fpasswd",
  "%2e%2e%2f",
  "%00",
  "%",
  "%%",
  "'; DROP TABLE events; --",
  "' OR '1'='1",
  "1; SELECT pg_sleep(10)",
  "$1",
  "\\",
  "\"",
  "<script>alert(1)</script>",
  "{\"$ne\":null}",
  "null",
  "undefined",
  "NaN",
  "-0",
  "1e999",
  "-1",
  "0",
  "9007199254740993",
  "2026-02-30",
  "0000-00-00",
  "9999-12-31",
  "2026-06-15T06:00:00Z",
  "\r\nX-Injected: 1",
  "\t",
  "psx_s_",
  "psx_k_00000000000000000000000000000000"
]

export const hostileNumbers: ReadonlyArray<unknown> = [
  new RawNumber("1e999"),
  new RawNumber("-1e999"),
  new RawNumber("-0"),
  new RawNumber("1".repeat(400)),
  new RawNumber("0.0000000000000000000000000001"),
  0,
  -1,
  0.001,
  Number.MAX_SAFE_INTEGER,
  Number.MIN_SAFE_INTEGER,
  2 ** 53 + 2,
  1e308,
  "NaN",
  "Infinity",
  "-Infinity",
  "12"
]

const deep = (depth: number, open: string, close: string) => open.repeat(depth) + close.repeat(depth)

/** Whole bodies that are not what any endpoint declares. */
export const hostileBodies: ReadonlyArray<string> = [
  "",
  "null",
  "[]",
  "{",
  "{\"a\":",
  "\u0000",
  "not json",
  "{\"kind\":\"buy\"}{\"kind\":\"buy\"}",
  deep(5_000, "[", "]"),
  deep(100_000, "[", "]"),
  deep(3_000, "{\"a\":", "}").replace(/\{"a":\}/, "{\"a\":1}"),
  JSON.stringify({ __proto__: { admin: true }, constructor: { prototype: { x: 1 } } }),
  "{\"__proto__\":{\"polluted\":true}}",
  JSON.stringify({ x: "y".repeat(900_000) }),
  "\ufeff{}",
  "{\"amount\":1e999}",
  "{\"amount\":-0}",
  "{\"amount\":NaN}"
]

/** Any JSON value, including the hostile strings and numbers. */
export const anyJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom(...hostileStrings),
    fc.constantFrom(...hostileNumbers),
    fc.string(),
    fc.double(),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 8 }), tie("value"), { maxKeys: 4 })
  )
})).value

type JsonSchema = Record<string, any>

const resolve = (schema: JsonSchema, root: JsonSchema): JsonSchema => {
  if (typeof schema["$ref"] === "string") {
    const path = (schema["$ref"] as string).replace(/^#\//, "").split("/")
    let node: any = root
    for (const part of path) node = node?.[part]
    return resolve(node ?? {}, root)
  }
  return schema
}

/** A value that follows `schema` (loosely: formats and patterns as fast-check can), as a fast-check arbitrary. */
export const conforming = (schema: JsonSchema, root: JsonSchema, depth = 0): fc.Arbitrary<unknown> => {
  const s = resolve(schema, root)
  if (depth > 6) return fc.constant(null)
  if ("const" in s) return fc.constant(s["const"])
  if (Array.isArray(s["enum"])) return fc.constantFrom(...(s["enum"] as Array<unknown>))
  const variants = (s["anyOf"] ?? s["oneOf"]) as Array<JsonSchema> | undefined
  if (variants !== undefined && variants.length > 0) {
    return fc.oneof(...variants.map((v) => conforming(v, root, depth + 1)))
  }
  switch (s["type"]) {
    case "string": {
      if (typeof s["pattern"] === "string") {
        try {
          return fc.stringMatching(new RegExp(s["pattern"] as string))
        } catch {
          return fc.string()
        }
      }
      return fc.string({ minLength: s["minLength"] ?? 0, maxLength: Math.min(s["maxLength"] ?? 24, 64) })
    }
    case "integer":
      return fc.integer({
        min: Math.max(s["minimum"] ?? -1_000_000, Number.MIN_SAFE_INTEGER),
        max: Math.min(s["maximum"] ?? 1_000_000, Number.MAX_SAFE_INTEGER)
      })
    case "number":
      return fc.oneof(
        fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }),
        fc.integer({ min: -10, max: 10_000 })
      )
    case "boolean":
      return fc.boolean()
    case "null":
      return fc.constant(null)
    case "array":
      return fc.array(fuzzed(s["items"] ?? {}, root, depth + 1), { maxLength: 5 })
    case "object": {
      const properties = (s["properties"] ?? {}) as Record<string, JsonSchema>
      const required = new Set((s["required"] ?? []) as Array<string>)
      const entries = Object.entries(properties).map(([k, v]) =>
        [k, fc.option(fuzzed(v, root, depth + 1), { nil: undefined, freq: required.has(k) ? 20 : 2 })] as const
      )
      return fc.tuple(
        fc.record(Object.fromEntries(entries)),
        fc.option(
          fc.dictionary(fc.constantFrom("extra", "__proto__", "constructor", "kind", "\u0000"), anyJson, {
            maxKeys: 2
          }),
          { freq: 5 }
        )
      ).map(([record, extra]) => {
        const out: Record<string, unknown> = {}
        for (const [k, v] of Object.entries(record)) if (v !== undefined) out[k] = v
        if (extra !== null) {
          for (const [k, v] of Object.entries(extra)) Object.defineProperty(out, k, { value: v, enumerable: true })
        }
        return out
      })
    }
    default:
      return anyJson
  }
}

/** Mostly conforming, sometimes hostile: the leaf-level mix every generator uses. */
export const fuzzed = (schema: JsonSchema, root: JsonSchema, depth = 0): fc.Arbitrary<unknown> =>
  fc.oneof(
    { arbitrary: conforming(schema, root, depth), weight: 4 },
    { arbitrary: fc.constantFrom(...hostileStrings), weight: 1 },
    { arbitrary: fc.constantFrom(...hostileNumbers), weight: 1 },
    { arbitrary: depth < 2 ? anyJson : fc.constant(null), weight: 1 }
  )

/** A parameter value as text (path, query or header), from its schema or the hostile list. */
const paramText = (schema: JsonSchema, root: JsonSchema): fc.Arbitrary<string> =>
  fc.oneof(
    { arbitrary: conforming(schema, root).map((v) => (typeof v === "string" ? v : toJson(v))), weight: 3 },
    { arbitrary: fc.constantFrom(...hostileStrings), weight: 2 },
    { arbitrary: fc.string({ unit: "binary", maxLength: 40 }), weight: 1 }
  )

/** Percent-encodes text as UTF-8, writing lone surrogates as their (invalid) three-byte form. */
export const encode = (text: string): string => {
  let out = ""
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    const isHigh = code >= 0xd800 && code <= 0xdbff
    const next = text.charCodeAt(i + 1)
    if (isHigh && next >= 0xdc00 && next <= 0xdfff) {
      out += encodeURIComponent(text.slice(i, i + 2))
      i++
    } else if (code >= 0xd800 && code <= 0xdfff) {
      out += `%${(0xe0 | (code >> 12)).toString(16).toUpperCase()}%${
        (0x80 | ((code >> 6) & 0x3f)).toString(16).toUpperCase()
      }%${(0x80 | (code & 0x3f)).toString(16).toUpperCase()}`
    } else out += encodeURIComponent(text[i]!)
  }
  return out
}

export interface Operation {
  readonly method: string
  readonly path: string
  readonly secured: boolean
  readonly operation: JsonSchema
}

/** Every operation the document declares. */
export const operationsOf = (doc: JsonSchema): Array<Operation> =>
  Object.entries(doc["paths"] as Record<string, Record<string, JsonSchema>>).flatMap(([path, ops]) =>
    Object.entries(ops)
      .filter(([method]) => ["get", "post", "put", "patch", "delete"].includes(method))
      .map(([method, operation]) => ({
        method: method.toUpperCase(),
        path,
        secured: Array.isArray(operation["security"]) && operation["security"].length > 0,
        operation
      }))
  )

export interface FuzzRequest {
  readonly method: string
  readonly url: string
  readonly headers: Record<string, string>
  readonly body?: string
}

/** Header values must be latin-1 without control characters, or Node refuses to send them. */
const headerSafe = (text: string) => text.replace(/[^\x20-\x7e]/g, "?").slice(0, 8_000)

/**
 * Requests for one operation: path and query parameters, headers and the body from their schemas or the hostile
 * lists, with an Authorization header drawn from `credentials` (real tokens, made-up ones, none).
 */
export const requestsFor = (
  op: Operation,
  doc: JsonSchema,
  credentials: ReadonlyArray<string | undefined>
): fc.Arbitrary<FuzzRequest> => {
  const params = (op.operation["parameters"] ?? []) as Array<JsonSchema>
  const pathParams = params.filter((p) => p["in"] === "path")
  const otherParams = params.filter((p) => p["in"] === "query" || p["in"] === "header")
  const pathArb: fc.Arbitrary<Record<string, string>> = fc.record(
    Object.fromEntries(pathParams.map((p) => [p["name"] as string, paramText(p["schema"] ?? {}, doc)]))
  )
  const otherArb: fc.Arbitrary<Record<string, string | undefined>> = fc.record(
    Object.fromEntries(otherParams.map((p) => [
      p["name"],
      fc.option(paramText(p["schema"] ?? {}, doc), { nil: undefined, freq: p["required"] === true ? 20 : 2 })
    ]))
  )
  const bodySchema = op.operation["requestBody"]?.["content"]?.["application/json"]?.["schema"] as
    | JsonSchema
    | undefined
  const bodyArb: fc.Arbitrary<string | undefined> = bodySchema === undefined
    ? fc.option(fc.constantFrom(...hostileBodies.slice(0, 8)), { nil: undefined, freq: 4 })
    : fc.oneof(
      { arbitrary: fuzzed(bodySchema, doc).map(toJson), weight: 6 },
      { arbitrary: fc.constantFrom(...hostileBodies), weight: 2 },
      { arbitrary: anyJson.map(toJson), weight: 1 }
    )
  return fc.record({
    path: pathArb,
    other: otherArb,
    extra: fc.option(
      fc.tuple(fc.constantFrom("x", "limit", "cursor", "__proto__", "q"), fc.constantFrom(...hostileStrings)),
      { freq: 4 }
    ),
    credential: fc.constantFrom(...credentials),
    body: bodyArb
  }).map(({ path, other, extra, credential, body }) => {
    const headers: Record<string, string> = {}
    const query: Array<string> = []
    let url = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => encode(path[name] as string) || "%20")
    for (const p of otherParams) {
      const value = other[p["name"]] as string | undefined
      if (value === undefined) continue
      if (p["in"] === "header") headers[p["name"]] = headerSafe(value)
      else query.push(`${encode(p["name"])}=${encode(value)}`)
    }
    if (extra !== null) query.push(`${encode(extra[0])}=${encode(extra[1])}`)
    if (query.length > 0) url += `?${query.join("&")}`
    if (credential !== undefined) headers["authorization"] = headerSafe(credential)
    // fetch refuses a body on GET; the server is sent bodies only where a method may carry one.
    return body === undefined || op.method === "GET"
      ? { method: op.method, url, headers }
      : { method: op.method, url, headers, body }
  })
}

/** What a response must look like: below 500, and an error record when it is a 4xx. Undefined when it does. */
export const violation = (status: number, contentType: string, text: string): string | undefined => {
  if (status >= 500) return `status ${status}: ${text.slice(0, 300)}`
  if (status < 400) return undefined
  if (!contentType.includes("json")) return `status ${status} with content-type ${contentType}: ${text.slice(0, 200)}`
  let body: any
  try {
    body = JSON.parse(text)
  } catch {
    return `status ${status} with a body that is not JSON: ${text.slice(0, 200)}`
  }
  if (body === null || typeof body !== "object" || typeof body.error !== "string" || typeof body.message !== "string") {
    return `status ${status} without an error record: ${text.slice(0, 200)}`
  }
  return undefined
}

/** A short, reproducible description of a request for failure messages. */
export const describeRequest = (r: FuzzRequest) =>
  `${r.method} ${r.url.slice(0, 300)} headers=${JSON.stringify(r.headers).slice(0, 200)} body=${
    r.body === undefined
      ? "-"
      : JSON.stringify(r.body.slice(0, 200)) + (r.body.length > 200 ? `…(${r.body.length} chars)` : "")
  }`
