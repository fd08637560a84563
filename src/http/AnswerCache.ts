/**
 * Answers kept as bytes: a property of the endpoints whose handler is
 * wrapped in `cached`, never a table of its own.
 *
 * A feature's …Http.ts wraps an endpoint's handler with a policy —
 * `.handle("stock", cached("stock", policy, ({ params }) => companies.stock(params.sym)))` —
 * which registers that very handler here, under its endpoint, with the
 * endpoint's own definition from the Api: its params and query schemas
 * (with the parse options the HttpApi decodes them with) and its success and
 * error schemas (with the parse options it encodes them with). The HttpApi
 * router runs the handler as it is; the fast path (FastPath.ts) runs the same
 * handler on a miss and encodes its value the way HttpApiBuilder does (the
 * endpoint's success schema, or the error schema the failure is an instance
 * of, then `JSON.stringify`), so both give the same bytes.
 *
 * An answer is kept under the decoded request (one key whatever the URL's
 * spelling or parameter order) in the policy's `home` — for the market, the
 * read model's state: a new snapshot starts with no answers — until the
 * instant the policy says it stops being true (a calendar boundary). A
 * failure is an answer when the policy says it depends on the home and the
 * clock alone (an unknown symbol's 404, a stale quote's 409); any other
 * failure, and a defect, is left to the HttpApi pipeline. Requests a policy
 * calls `open` (free queries, symbols not listed) are kept up to OPEN_ANSWERS
 * per home and endpoint; `bounded` ones (the listed symbols) always.
 *
 * A request about a past instant (a point-in-time read) is kept in that
 * instant's home when the policy gives one (`instantHome`), made by the
 * handler run as of the instant; else the HttpApi pipeline answers it.
 *
 * A cached handler must be a function of its decoded params and query alone
 * (it is not given the HTTP request), and require no service.
 */
import { Context, Effect, Layer, Result, Schema, type SchemaAST } from "effect"
import { HttpApi, type HttpApiEndpoint, type HttpApiGroup } from "effect/http-api"
import { canonicalKey, decoderOf, encoderOf, JSON_TYPE, jsonContentType } from "./AnswerEncoding.ts"

/** An answer as bytes, and the instant after which it must be made again. */
export interface Answer {
  readonly status: number
  readonly body: Uint8Array
  readonly validUntil: number
  /** Headers the answer carries beyond its content type (an instant's answers say which instant). */
  readonly headers: Readonly<Record<string, string>> | undefined
}

/** Where answers are kept: they live and go with it. */
export interface AnswerHome {
  readonly answers: Map<string, Answer>
}

/**
 * Where the answers of a request about a past instant live (AnswerPolicy.instantHome): they are true for good
 * while their home lives, are made by the handler run as of that instant, and carry its headers.
 */
export interface InstantHome extends AnswerHome {
  /** Runs the handler as of the instant. */
  readonly run: <A, E>(effect: Effect.Effect<A, E>) => Effect.Effect<A, E>
  readonly headers: Readonly<Record<string, string>>
}

/** Answers kept in one instant's home, at the most. */
export const INSTANT_ANSWERS = 2_048

/** An endpoint's decoded request, as its handler receives it. */
export interface Decoded {
  readonly params?: any
  readonly query?: any
}

/** Whether a request's answer is kept: always (`bounded`), up to OPEN_ANSWERS per home (`open`), or never. */
export type Keeping = "bounded" | "open" | undefined

/** How an endpoint's answers are kept. */
export interface AnswerPolicy<H extends AnswerHome = AnswerHome> {
  /** Where answers are kept now; undefined: nothing is answered from the cache now. */
  readonly home: () => H | undefined
  readonly keeps: (request: Decoded, home: H) => Keeping
  /** Until when the answer made at `now` stays true. */
  readonly validUntil: (request: Decoded, home: H, now: number) => number
  /** Whether a failure of the handler is an answer (a function of the home and the clock alone). */
  readonly keepsFailure: (error: unknown) => boolean
  /** One name for endpoints that serve the same answer (aliases), so they share their answers. */
  readonly shareAs?: string
  /**
   * For a request about a past instant, that instant's home; undefined when it has none ready (the pipeline
   * answers it); "live" for a request about now (the default when absent).
   */
  readonly instantHome?: (request: Decoded) => InstantHome | "live" | undefined
}

/** A cached endpoint, as the fast path and warming see it. */
export interface CachedEndpoint {
  /** `group.endpoint`, as in the Api. */
  readonly name: string
  readonly endpoint: HttpApiEndpoint.Top
  readonly contentType: string
  /** Decodes a matched path's params and query as the HttpApi does; undefined when they do not decode. */
  readonly decode: (params: Record<string, unknown>, query: Record<string, unknown>) => Decoded | undefined
  readonly keyOf: (request: Decoded) => string
  /** The answer to `request` kept under `key` and still true at `now`, synchronously. */
  readonly held: (request: Decoded, key: string, now: number) => Answer | undefined
  /** Runs the handler and keeps its answer; undefined when it is not an answer kept here. */
  readonly fill: (request: Decoded, key: string, now: number) => Effect.Effect<Answer | undefined>
}

/** An answer, every one of the same shape (the fast path reads them all at one site). */
const answerOf = (
  encoded: { readonly status: number; readonly body: Uint8Array },
  validUntil: number,
  headers: Readonly<Record<string, string>> | undefined
): Answer => ({ status: encoded.status, body: encoded.body, validUntil, headers })

/** Answers kept per home and endpoint for `open` requests. */
export const OPEN_ANSWERS = 1_000

type Handler = (request: any) => Effect.Effect<unknown, unknown>
/** What the Api says of one endpoint (HttpApi.reflect). */
interface Reflected {
  readonly endpoint: HttpApiEndpoint.Top
  readonly annotations: Context.Context<never>
  readonly successes: ReadonlyMap<number, ReadonlyArray<Schema.Top>>
  readonly errors: ReadonlyMap<number, ReadonlyArray<Schema.Top>>
}

/** A slot's parse options as the HttpApi reads them: the slot's own annotation, else the general one. */
const parseOptions = (annotations: Context.Context<never>, slot: Context.Key<any, SchemaAST.ParseOptions>) =>
  Context.getOrUndefined(annotations, slot) ?? Context.getOrUndefined(annotations, HttpApi.ParseOptions)

const makeEntry = (name: string, api: Reflected, policy: AnswerPolicy<any>, handler: Handler) => {
  const { annotations, endpoint } = api
  // How many `open` answers this endpoint keeps in each home.
  const openCounts = new WeakMap<AnswerHome, number>()
  const contentType = [...api.successes.values()].flat().map((s) => jsonContentType(name, s))[0] ?? JSON_TYPE
  const encodeSuccess = encoderOf(api.successes, parseOptions(annotations, HttpApi.SuccessParseOptions))
  const encodeFailure = encoderOf(api.errors, parseOptions(annotations, HttpApi.ErrorParseOptions))
  const params = decoderOf(endpoint.params, parseOptions(annotations, HttpApi.ParamsParseOptions))
  // As the HttpApi decodes a query: a repeated parameter is an array.
  const query = decoderOf(endpoint.query && Schema.toCodecArrayFromSingle(endpoint.query), parseOptions(annotations, HttpApi.QueryParseOptions))
  const prefix = `${policy.shareAs ?? name} `

  const decode = (rawParams: Record<string, unknown>, rawQuery: Record<string, unknown>): Decoded | undefined => {
    const p = params(rawParams)
    const q = query(rawQuery)
    if (Result.isFailure(p) || Result.isFailure(q)) return undefined
    return { ...(p.success !== undefined ? { params: p.success } : {}), ...(q.success !== undefined ? { query: q.success } : {}) }
  }

  /** The request's instant's home, "live", or undefined (an instant with no home ready). */
  const instantOf = (request: Decoded) => policy.instantHome === undefined ? "live" : policy.instantHome(request)

  const held = (request: Decoded, key: string, now: number) => {
    const instant = instantOf(request)
    const answer = (instant === "live" ? policy.home() : instant)?.answers.get(key)
    return answer !== undefined && now < answer.validUntil ? answer : undefined
  }

  /** An instant's answer, made as of it and kept for as long as its home lives (INSTANT_ANSWERS at the most). */
  const fillAt = (instant: InstantHome, request: Decoded, key: string) => {
    if (instant.answers.size >= INSTANT_ANSWERS && !instant.answers.has(key)) return Effect.succeed(undefined)
    return instant.run(handler({ endpoint, ...request })).pipe(
      Effect.map(encodeSuccess),
      Effect.catch((error) => Effect.succeed(policy.keepsFailure(error) ? encodeFailure(error) : undefined)),
      Effect.map((encoded): Answer | undefined => {
        if (encoded === undefined) return undefined
        const answer = answerOf(encoded, Number.POSITIVE_INFINITY, instant.headers)
        instant.answers.set(key, answer)
        return answer
      })
    )
  }

  const fill = (request: Decoded, key: string, now: number) =>
    Effect.suspend(() => {
      const instant = instantOf(request)
      if (instant === undefined) return Effect.succeed(undefined)
      if (instant !== "live") return fillAt(instant, request, key)
      // The home is taken before the handler reads anything: an answer made from a newer state is kept in a home that is gone.
      const home = policy.home()
      const keeping = home === undefined ? undefined : policy.keeps(request, home)
      if (home === undefined || keeping === undefined) return Effect.succeed(undefined)
      const isNew = !home.answers.has(key)
      if (keeping === "open" && isNew && (openCounts.get(home) ?? 0) >= OPEN_ANSWERS) return Effect.succeed(undefined)
      return handler({ endpoint, ...request }).pipe(
        Effect.map(encodeSuccess),
        Effect.catch((error) => Effect.succeed(policy.keepsFailure(error) ? encodeFailure(error) : undefined)),
        Effect.map((encoded): Answer | undefined => {
          if (encoded === undefined) return undefined
          const answer = answerOf(encoded, policy.validUntil(request, home, now), undefined)
          if (keeping === "open" && isNew && !home.answers.has(key)) openCounts.set(home, (openCounts.get(home) ?? 0) + 1)
          home.answers.set(key, answer)
          return answer
        })
      )
    })

  const entry: CachedEndpoint = { name, endpoint, contentType, decode, keyOf: (request) => prefix + canonicalKey(request), held, fill }
  return entry
}

/** Every endpoint of one group of an Api, as the Api describes it. */
const reflectGroup = (api: HttpApi.Top, group: string) => {
  const found = new Map<string, Reflected>()
  HttpApi.reflect(api, {
    predicate: ({ group: g }) => g.identifier === group,
    onGroup: () => {},
    onEndpoint: ({ endpoint, errors, mergedAnnotations, successes }) => {
      found.set(endpoint.identifier, { endpoint, annotations: mergedAnnotations, successes, errors })
    }
  })
  return found
}

/**
 * The answer an endpoint gives for a success value, encoded as the HttpApi encodes it: for an answer
 * needed before any handler can run (the front door's liveness while the routes are built).
 */
export const successAnswer = <Id extends string, Groups extends HttpApiGroup.Constraint, const Group extends HttpApiGroup.Identifier<Groups>>(
  api: HttpApi.HttpApi<Id, Groups>,
  group: Group,
  endpoint: HttpApiGroup.EndpointsWithIdentifier<Groups, Group>["identifier"],
  value: unknown
) => {
  const reflected = reflectGroup(api as unknown as HttpApi.Top, group).get(endpoint)
  const answer = reflected && encoderOf(reflected.successes, parseOptions(reflected.annotations, HttpApi.SuccessParseOptions))(value)
  if (answer === undefined) throw new Error(`${group}.${endpoint}: the value does not encode as its success`)
  return answer
}

export interface AnswerCacheShape {
  /**
   * The `cached` wrapper for one group's handlers: `cached(endpoint, policy, handler)` registers the
   * handler under its endpoint and returns it for `handlers.handle(endpoint, …)`.
   */
  readonly handlersOf: <Id extends string, Groups extends HttpApiGroup.Constraint, const Group extends HttpApiGroup.Identifier<Groups>>(
    api: HttpApi.HttpApi<Id, Groups>,
    group: Group
  ) => <F extends (request: any) => Effect.Effect<any, any, never>>(
    endpoint: HttpApiGroup.EndpointsWithIdentifier<Groups, Group>["identifier"],
    policy: AnswerPolicy<any>,
    handler: F
  ) => F
  /** The cached endpoints registered so far (the same array until one more is registered). */
  readonly entries: () => ReadonlyArray<CachedEndpoint>
  /** Makes the answer of `group.endpoint` for a decoded request unless one is held (nothing when not cached). */
  readonly warm: (name: string, request: Decoded) => Effect.Effect<void>
}

export class AnswerCache extends Context.Service<AnswerCache, AnswerCacheShape>()("psx/http/AnswerCache") {
  static readonly make = (): AnswerCacheShape => {
    const registered = new Map<string, CachedEndpoint>()
    let entries: ReadonlyArray<CachedEndpoint> = []
    const handlersOf: AnswerCacheShape["handlersOf"] = (api, group) => {
      const endpoints = reflectGroup(api as unknown as HttpApi.Top, group)
      return (name, policy, handler) => {
        const reflected = endpoints.get(name)
        if (reflected === undefined || reflected.endpoint.method !== "GET") {
          throw new Error(`cached: ${group}.${name} is not a GET endpoint of the Api`)
        }
        registered.set(`${group}.${name}`, makeEntry(`${group}.${name}`, reflected, policy, handler))
        entries = [...registered.values()]
        // The router runs the handler as it is; the check says a wrapper was put on the endpoint it names.
        return ((request: { readonly endpoint?: unknown }) =>
          request.endpoint === reflected.endpoint
            ? handler(request)
            : Effect.die(new Error(`cached("${name}") is the handler of another endpoint`))) as typeof handler
      }
    }
    const warm = (name: string, request: Decoded) =>
      Effect.suspend(() => {
        const entry = registered.get(name)
        if (entry === undefined) return Effect.void
        const key = entry.keyOf(request)
        return Effect.flatMap(Effect.clockWith((clock) => Effect.succeed(clock.currentTimeMillisUnsafe())), (now) =>
          entry.held(request, key, now) !== undefined ? Effect.void : Effect.asVoid(entry.fill(request, key, now)))
      })
    return { handlersOf, entries: () => entries, warm }
  }

  static readonly layer = Layer.sync(AnswerCache, AnswerCache.make)
}
