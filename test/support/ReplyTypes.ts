/**
 * Reply types for the raw test client, derived from the OpenAPI document of the Api (the generated
 * `src/web/assets/api-types.d.ts`): a request path such as `/v1/quotes/HBL?allow_stale=true` finds its
 * route template (`/v1/quotes/{symbol}`), and the reply's body is that operation's success type, or the
 * error record once the status says it failed.
 */
import type { operations, paths } from "../../src/web/assets/api-types.d.ts"

/** The error record every failed answer carries (SPEC: `{error, message, symbol?}`). */
export interface ErrorRecord {
  readonly error: string
  readonly message: string
  readonly symbol?: string
  /** DATA_STALE: the as-of of the figure that is too old. */
  readonly as_of?: string
}

type Route = keyof paths & string
type Method = "get" | "post" | "put" | "delete"
type PathOnly<P extends string> = P extends `${infer Path}?${string}` ? Path : P
type Segments<S extends string> = S extends `${infer Head}/${infer Tail}` ? [Head, ...Segments<Tail>] : [S]
type SegmentsMatch<C extends ReadonlyArray<string>, T extends ReadonlyArray<string>> = C extends
  [infer CH extends string, ...infer CT extends Array<string>]
  ? T extends [infer TH extends string, ...infer TT extends Array<string>]
    ? TH extends `{${string}}` ? SegmentsMatch<CT, TT> : CH extends TH ? SegmentsMatch<CT, TT> : false
  : false
  : T extends [] ? true
  : false
type ExactRoute<P extends string> = PathOnly<P> extends Route ? PathOnly<P> : never
type TemplateRoute<P extends string> = {
  [K in Route]: SegmentsMatch<Segments<PathOnly<P>>, Segments<K>> extends true ? K : never
}[Route]
/** The route template a request path is served by (a literal route wins over a template one). */
export type RouteOf<P extends string> = [ExactRoute<P>] extends [never] ? TemplateRoute<P> : ExactRoute<P>

type Operation<R, M extends Method> = R extends Route ? paths[R][M] extends infer O extends { responses: unknown } ? O
  : never
  : never
type JsonOf<Responses, Status extends number> = Responses extends
  { [S in Status]: { content: { "application/json": infer C } } } ? C : never
type SuccessOfOperation<O> = O extends { responses: infer Responses }
  ? JsonOf<Responses, 200> | JsonOf<Responses, 201> extends infer B ? [B] extends [never] ? string : B : never
  : unknown

/** One operation of the served OpenAPI document: the parts the tests read. */
export interface OpenApiOperation {
  readonly operationId: string
  readonly summary: string
  readonly description: string
  readonly tags: ReadonlyArray<string>
  readonly parameters?: ReadonlyArray<{ readonly name: string; readonly in: string; readonly required?: boolean }>
  readonly requestBody?: unknown
  readonly responses: Readonly<Record<string, unknown>>
}
/** A route's entry in the document: one operation per method the route serves. */
type OpenApiPathItem<R extends Route> = {
  readonly [M in Method as undefined extends paths[R][M] ? never : M]: OpenApiOperation
}
/** The served OpenAPI document (GET /openapi.json), its routes keyed as in the generated types. */
export interface OpenApiDocument {
  readonly openapi: string
  readonly info: { readonly title: string; readonly version: string; readonly description: string }
  readonly servers: ReadonlyArray<{ readonly url: string }>
  readonly tags: ReadonlyArray<{ readonly name: string; readonly description?: string }>
  readonly paths: { readonly [R in Route]: OpenApiPathItem<R> }
  readonly components: Readonly<Record<string, unknown>>
}

/** A tool as tools/list describes it. */
export interface McpTool {
  readonly name: string
  readonly description: string
  readonly inputSchema: { readonly type: string; readonly properties?: Readonly<Record<string, unknown>> }
  readonly annotations?: Readonly<Record<string, unknown>>
}
/**
 * A JSON-RPC answer of POST /mcp (not part of the OpenAPI document). `result` holds what the method
 * returns: `serverInfo` for initialize, `tools` for tools/list, `content` for tools/call; each test reads
 * the member of the method it called, and an absent one fails its assertion.
 */
export interface McpReply {
  readonly jsonrpc: "2.0"
  readonly id: number | string | null
  readonly result: {
    readonly protocolVersion: string
    readonly serverInfo: { readonly name: string; readonly version: string }
    readonly tools: ReadonlyArray<McpTool>
    readonly content: ReadonlyArray<{ readonly type: string; readonly text: string }>
    readonly structuredContent?: unknown
    readonly isError?: boolean
  }
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown }
}

/** Documents served beside the Api's routes. */
interface Documents {
  readonly "/openapi.json": OpenApiDocument
  readonly "/mcp": McpReply
}

/** The success body of `M path`: the operation's JSON, `string` for a non-JSON answer, `unknown` for no route. */
export type SuccessOf<P extends string, M extends Method = "get"> = PathOnly<P> extends keyof Documents
  ? Documents[PathOnly<P>]
  : [RouteOf<P>] extends [never] ? unknown
  : SuccessOfOperation<Operation<RouteOf<P>, M>>

/** One item of a paged list route's `items`. */
export type ItemOf<P extends string> = SuccessOf<P> extends { readonly items: ReadonlyArray<infer I> } ? I : never

/** The body of a failed `path`: the error record, or a JSON-RPC error answer on POST /mcp. */
export type FailureOf<P extends string> = PathOnly<P> extends "/mcp" ? McpReply : ErrorRecord

/** A reply: the success body while `ok` (a 2xx status), the failure body (the error record) otherwise. */
export type Reply<B = unknown, F = ErrorRecord> =
  | { readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly ok: true; readonly body: B }
  | {
    readonly status: number
    readonly headers: Readonly<Record<string, string>>
    readonly ok: false
    readonly body: F
  }

export type { operations }
