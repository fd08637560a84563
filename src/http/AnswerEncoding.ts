/**
 * How a cached endpoint's requests and answers are read and written as the HttpApi reads and writes them:
 * one key per decoded request, its params and query decoded with the endpoint's own schemas and parse
 * options, its success or error value encoded with the response schemas, as bytes (AnswerCache.ts).
 */
import { Result, Schema, SchemaAST } from "effect"
import { Buffer } from "node:buffer"

export type EncodeAs = (value: unknown) => { readonly status: number; readonly body: Uint8Array } | undefined

export const JSON_TYPE = "application/json"

/** One JSON text per decoded value whatever its key order; absent (undefined) keys leave no trace. */
export const canonicalKey = (value: unknown): string => {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null"
  if (Array.isArray(value)) return `[${value.map(canonicalKey).join(",")}]`
  const keys = Object.keys(value)
  if (keys.length > 1) keys.sort()
  let text = "{"
  for (const k of keys) {
    const v = (value as Record<string, unknown>)[k]
    if (v !== undefined) text += `${text.length > 1 ? "," : ""}${JSON.stringify(k)}:${canonicalKey(v)}`
  }
  return text + "}"
}

/** The HttpApi's response encoding annotation (HttpApiSchema: JSON when absent). */
const responseEncoding = SchemaAST.resolveAt<{ readonly _tag: string; readonly contentType: string }>("~httpApiEncoding")

/** The content type of a response schema: JSON unless it says otherwise (then it is not cached). */
export const jsonContentType = (name: string, schema: Schema.Top): string => {
  const encoding = responseEncoding(schema.ast)
  if (encoding === undefined) return JSON_TYPE
  if (encoding._tag !== "Json") throw new Error(`${name}: only JSON answers are cached, not ${encoding._tag}`)
  return encoding.contentType
}

/**
 * An encoder over response schemas by status, as HttpApiBuilder encodes a value: the first schema the value
 * is an instance of (the only one, for a single schema), with the slot's parse options, then JSON text.
 */
export const encoderOf = (schemas: ReadonlyMap<number, ReadonlyArray<Schema.Top>>, options: SchemaAST.ParseOptions | undefined): EncodeAs => {
  const members = [...schemas].flatMap(([status, list]) =>
    list.map((schema) => ({ status, is: Schema.is(schema), encode: Schema.encodeUnknownResult(schema as Schema.Codec<unknown, unknown>, options) }))
  )
  return (value) => {
    for (const m of members) {
      if (members.length > 1 && !m.is(value)) continue
      const encoded = m.encode(value)
      if (Result.isFailure(encoded)) return undefined
      const text = JSON.stringify(encoded.success)
      // A Buffer, as node:http writes it (a plain Uint8Array is wrapped in one on every write).
      return text === undefined ? undefined : { status: m.status, body: Buffer.from(text, "utf8") }
    }
    return undefined
  }
}

export const decoderOf = (schema: Schema.Top | undefined, options: SchemaAST.ParseOptions | undefined) => {
  if (schema === undefined) return () => Result.succeed(undefined)
  return Schema.decodeUnknownResult(schema as Schema.Codec<unknown, unknown>, options)
}
