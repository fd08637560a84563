/**
 * A tool that is one HTTP route of this service (the portfolio tools,
 * PortfolioTools.ts). Its arguments and result schemas are read off the
 * route's definition in the HttpApi, and a call is that route's request, run
 * in process (RouteToolCall.ts, RouteCaller.ts) with the caller's credential: the tool has the
 * route's authentication, grant check, validation, rate limit and answers by
 * construction, with no second definition of any of them.
 *
 * - Arguments: the route's path and query fields by name, its JSON body as
 *   `body`, its request headers with `_` for `-` (`idempotency_key`). They go
 *   to the route as given and the route decodes them, so a bad value gets the
 *   route's own 400 INVALID_REQUEST record (as a tool result, which is what MCP
 *   2025-11-25 asks of input errors). An argument the route does not take, or
 *   a value no URL can carry (an object in a query field), is refused here with
 *   the same record.
 * - Result: the route's body, as `structuredContent` and as its JSON text; a
 *   refusal is the route's error record with `isError`. `_meta["psx/status"]`
 *   is the route's HTTP status (201 for a recorded transaction; 409 for a
 *   reused idempotency key, which the record alone does not tell from 400).
 */
import { Context, Result, Schema, SchemaAST } from "effect"
import { McpSchema, Tool } from "effect/ai"
import { type HttpApiEndpoint } from "effect/http-api"
import { RequiredGrant } from "../ledger/accounts/BearerAuth.ts"
import { type RouteName } from "./ToolWords.ts"

type Json = { readonly [key: string]: unknown }

/** The keys of a path, query or header schema (an object of fields). */
export const namesOf = (schema: Schema.Top | undefined): ReadonlyArray<string> => {
  const ast = schema === undefined ? undefined : SchemaAST.toType(schema.ast)
  return ast !== undefined && SchemaAST.isObjects(ast) ? ast.propertySignatures.map((p) => String(p.name)) : []
}

const jsonBodyOf = (endpoint: HttpApiEndpoint.Top): Schema.Top | undefined => {
  const json = endpoint.payload.get("application/json")
  if (json === undefined) return undefined
  return json.schemas.length === 1 ? json.schemas[0] : Schema.Union(json.schemas)
}

const argumentOf = (header: string) => header.replaceAll("-", "_")

/** Where each argument goes in the route's request. */
interface Arguments {
  /** The path parameters, by argument name, with the route's own name of each. */
  readonly params: Readonly<Record<string, string>>
  readonly query: ReadonlyArray<string>
  readonly body: boolean
  /** The body's fields, when they are given as arguments of their own (`flatBody`). */
  readonly bodyFields: ReadonlyArray<string> | undefined
  /** The header each header argument is sent as. */
  readonly headers: Readonly<Record<string, string>>
  /** Arguments of the tool alone, never sent to the route (they shape its answer: `RouteToolOptions.shape`). */
  readonly own: ReadonlyArray<string>
}

/** What a tool adds to its route. */
export interface RouteToolOptions {
  /** Tool argument names of the route's path parameters (`{ symbol: "sym" }`). */
  readonly renames?: Readonly<Record<string, string>>
  /** The JSON body's fields are the tool's arguments (no `body` argument). */
  readonly flatBody?: boolean
  /** Arguments of the tool alone (JSON Schemas by name), given to `shape`. */
  readonly own?: Readonly<Record<string, Json>>
  /** The tool's record made from the route's body and the tool's arguments; a string refuses the call with that message. */
  readonly shape?: (record: Json, args: Json) => Json | string
  /** The arguments the route is asked with, from the tool's (after its own are set aside). */
  readonly prepare?: (args: Json) => Json
  /** A POST that only reads (the screener). */
  readonly readOnly?: boolean
}

export interface RouteTool {
  readonly name: string
  readonly endpoint: HttpApiEndpoint.Top
  readonly arguments: Arguments
  readonly options: RouteToolOptions
  /** The tool as tools/list gives it (before Listing.ts compacts it). */
  readonly descriptor: McpSchema.Tool
}

const argumentsOf = (endpoint: HttpApiEndpoint.Top, options: RouteToolOptions): Arguments => {
  const toolName = Object.fromEntries(Object.entries(options.renames ?? {}).map(([tool, route]) => [route, tool]))
  const body = jsonBodyOf(endpoint)
  return {
    params: Object.fromEntries(namesOf(endpoint.params).map((p) => [toolName[p] ?? p, p])),
    query: namesOf(endpoint.query),
    body: body !== undefined,
    bodyFields: options.flatBody === true && body !== undefined ? namesOf(body) : undefined,
    headers: Object.fromEntries(namesOf(endpoint.headers).map((h) => [argumentOf(h), h])),
    own: Object.keys(options.own ?? {})
  }
}

/** A JSON Schema with an object root: a top-level `$ref` is resolved against its `$defs`. */
const objectRooted = (schema: Json): Json => {
  const ref = schema["$ref"]
  if (typeof ref !== "string" || !ref.startsWith("#/$defs/")) return schema
  const defs = schema["$defs"] as Record<string, Json>
  const name = ref.slice("#/$defs/".length)
  const { [name]: root, ...rest } = defs
  return { ...root, ...(Object.keys(rest).length > 0 ? { $defs: rest } : {}) }
}

const jsonOf = (schema: Schema.Top) => objectRooted(Tool.getJsonSchemaFromSchema(schema) as Json)

/**
 * The tool's input schema: the path, query and header fields as the values they decode to (`limit` an integer,
 * sent as its text), renamed, and the body as it is sent.
 */
const inputSchemaOf = (endpoint: HttpApiEndpoint.Top, options: RouteToolOptions): Json => {
  const properties: Record<string, unknown> = {}
  const required: Array<string> = []
  let defs: Json = {}
  const add = (json: Json, rename: (key: string) => string) => {
    for (const [key, value] of Object.entries((json["properties"] ?? {}) as Json)) properties[rename(key)] = value
    for (const key of (json["required"] ?? []) as ReadonlyArray<string>) required.push(rename(key))
    defs = { ...defs, ...(json["$defs"] as Json | undefined) }
  }
  const fields = (schema: Schema.Top | undefined) =>
    schema === undefined ? {} : jsonOf(Schema.make(SchemaAST.toType(schema.ast)))
  const toolName = Object.fromEntries(Object.entries(options.renames ?? {}).map(([tool, route]) => [route, tool]))
  add(fields(endpoint.params), (k) => toolName[k] ?? k)
  add(fields(endpoint.query), (k) => k)
  add(fields(endpoint.headers), argumentOf)
  add({ properties: options.own ?? {} }, (k) => k)
  const body = jsonBodyOf(endpoint)
  if (body !== undefined && options.flatBody === true) add(jsonOf(body), (k) => k)
  else if (body !== undefined) {
    const { $defs, ...json } = jsonOf(body)
    add({
      properties: { body: { ...json, description: `The JSON body of ${endpoint.method} ${endpoint.path}` } },
      required: ["body"],
      $defs
    }, (k) => k)
  }
  return {
    type: "object",
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
    ...(Object.keys(defs).length > 0 ? { $defs: defs } : {})
  }
}

/** The grant the route needs (its RequiredGrant annotation), named in the tool's description. */
const grantOf = (endpoint: HttpApiEndpoint.Top) => Context.getOrUndefined(endpoint.annotations, RequiredGrant)

/**
 * Every route tool made, by route: an error message naming a route names its tool instead. Filled as the tool
 * lists are defined (module load), before any call.
 */
export const ROUTE_NAMES: Array<RouteName> = []

/** The tool `name` that is `endpoint`: `description` says what it answers (the route and grant are added). */
export const routeTool = (
  name: string,
  endpoint: HttpApiEndpoint.Top,
  description: string,
  options: RouteToolOptions = {}
): RouteTool => {
  const grant = grantOf(endpoint)
  const reads = endpoint.method === "GET" || options.readOnly === true
  const success = [...endpoint.success][0]
  ROUTE_NAMES.push({ method: endpoint.method, path: endpoint.path, name })
  return {
    name,
    endpoint,
    arguments: argumentsOf(endpoint, options),
    options,
    descriptor: new McpSchema.Tool({
      name,
      description: grant === undefined ? description : `${description} Grant: ${grant}.`,
      inputSchema: inputSchemaOf(endpoint, options) as McpSchema.Tool["inputSchema"],
      ...(success === undefined ? {} : { outputSchema: jsonOf(success) }),
      // Stated in full: a host that fills absent hints with the defaults would otherwise read a reader as destructive.
      annotations: reads
        ? { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }
        : { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false }
    })
  }
}

const refusal = (message: string) => Result.fail(message)

/** A query or path value as the URL carries it, or undefined when it cannot be one. */
const textsOf = (value: unknown): ReadonlyArray<string> | undefined => {
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return [String(value)]
  if (Array.isArray(value) && value.every((v) => ["string", "number", "boolean"].includes(typeof v))) {
    return value.map(String)
  }
  return undefined
}

/** Every argument a tool takes, for the message that refuses another. */
export const acceptedArguments = (tool: RouteTool) => {
  const parts = tool.arguments
  return [
    ...Object.keys(parts.params),
    ...parts.query,
    ...(parts.bodyFields ?? (parts.body ? ["body"] : [])),
    ...Object.keys(parts.headers),
    ...parts.own
  ]
}

/** The route's path, query, body and headers for the tool's arguments, or why there are none. */
export const requestParts = (tool: RouteTool, args: unknown): Result.Result<{
  readonly url: string
  readonly body: string | undefined
  readonly headers: Record<string, string>
}, string> => {
  const given = args ?? {}
  if (typeof given !== "object" || Array.isArray(given)) return refusal(`${tool.name} takes its arguments as an object`)
  const parts = tool.arguments
  let path: string = tool.endpoint.path
  const query = new URLSearchParams()
  const headers: Record<string, string> = {}
  let body: string | undefined
  const fields: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(given)) {
    if (
      value === undefined || (value === null && name !== "body" && parts.bodyFields === undefined) ||
      parts.own.includes(name)
    ) continue
    if (name === "body" && parts.body && parts.bodyFields === undefined) {
      body = JSON.stringify(value)
      continue
    }
    if (parts.bodyFields?.includes(name) === true && !parts.query.includes(name)) {
      fields[name] = value
      continue
    }
    const header = parts.headers[name]
    const param = parts.params[name]
    if (header === undefined && param === undefined && !parts.query.includes(name)) {
      const takes = acceptedArguments(tool)
      return refusal(
        `unknown argument \`${name}\`: ${tool.name} takes ${takes.length === 0 ? "none" : takes.join(", ")}`
      )
    }
    const texts = textsOf(value)
    if (texts === undefined || (texts.length !== 1 && (header !== undefined || param !== undefined))) {
      return refusal(
        `argument \`${name}\` must be a string, number or boolean; ${tool.name} takes ${
          acceptedArguments(tool).join(", ")
        }`
      )
    }
    if (header !== undefined) headers[header] = texts[0]!
    else if (param !== undefined) path = path.replace(`:${param}`, encodeURIComponent(texts[0]!))
    else for (const text of texts) query.append(name, text)
  }
  if (parts.bodyFields !== undefined) body = JSON.stringify(fields)
  const missing = Object.entries(parts.params).find(([, p]) => path.includes(`:${p}`))
  if (missing !== undefined) {
    return refusal(`argument \`${missing[0]}\` is required; ${tool.name} takes ${acceptedArguments(tool).join(", ")}`)
  }
  const search = query.toString()
  return Result.succeed({ url: search === "" ? path : `${path}?${search}`, body, headers })
}
