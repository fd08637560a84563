/**
 * The answer cache: the bytes the HttpApi pipeline produced for a GET whose handler is wrapped in `cached`,
 * kept under the request's canonical URL (RequestGate.ts rewrites every URL to its one spelling first), within a
 * byte budget, until the instant its policy says the answer stops being true or the read model's snapshot it
 * was made from is replaced. The fast path (FastPath.ts) serves them; nothing here encodes.
 *
 * A feature's …Http.ts wraps a handler: `.handle("stock", cached("stock", policy, ({ params }) => …))`. The
 * wrapper runs the handler as it is and notes, for the guard, how long its answer stays true; the guard
 * (Guard.ts) then keeps the response the pipeline made, with its ETag. A failure is kept when the policy says
 * it depends on the snapshot and the clock alone (an unknown symbol's 404, a stale quote's 409).
 */
import { Context, Effect, Layer, Schema, type SchemaAST } from "effect"
import { HttpApi, type HttpApiEndpoint, type HttpApiGroup } from "effect/http-api"
import { LRUCache } from "lru-cache"
import { createHash } from "node:crypto"

/** An endpoint's decoded request, as its handler receives it. */
export interface Decoded {
  readonly params?: any
  readonly query?: any
}

/**
 * Whether a request's answer is cached, and in which share of the budget: `bounded` (the listed symbols, the boards: a set the universe bounds),
 * `open` (free queries, symbols not listed: a share of the budget of their own, so they never push the bounded
 * answers out), or not at all.
 */
export type CacheShare = "bounded" | "open" | undefined

/** How an endpoint's answers are kept. `H`: the snapshot answers belong to (compared by identity). */
export interface AnswerPolicy<H extends object = object> {
  /** The snapshot answers are made from now; undefined: nothing is kept now. */
  readonly snapshot: () => H | undefined
  /** The share of the cache's budget the request's answer takes, if it is cached at all. */
  readonly share: (request: Decoded, snapshot: H) => CacheShare
  /** Until when the answer made at `now` stays true. */
  readonly validUntil: (request: Decoded, snapshot: H, now: number) => number
  /** Whether a failure of the handler is an answer (a function of the snapshot and the clock alone). */
  readonly cachesFailure: (error: unknown) => boolean
  /** Whether an answer (a success value or a kept failure) says its data is stale. */
  readonly saysStale?: (outcome: unknown) => boolean
  /**
   * For a request about a past instant, that instant's snapshot (kept for as long as the policy gives the same
   * object for the request), with the headers its answers carry; undefined: not kept; "live" for a request
   * about now (the default).
   */
  readonly pastSnapshot?: (request: Decoded) => PastSnapshot | "live" | undefined
  /** Headers the answers made from the live snapshot carry (the pipeline adds them after the guard has kept the answer). */
  readonly headers?: (snapshot: H) => Readonly<Record<string, string>>
}

/** The snapshot of the answers about one past instant. */
export interface PastSnapshot {
  /** Headers its answers carry (the pipeline adds them after the guard has kept the answer). */
  readonly headers: Readonly<Record<string, string>>
}

/** What a wrapped handler's run says of its answer (noted for the guard). */
export interface CacheNote {
  readonly share: "bounded" | "open"
  /** The answer is true from the instant it was made (a clock stepped back does not reach behind it) to `validUntil`. */
  readonly madeAt: number
  readonly validUntil: number
  readonly stale: boolean
  /** Whether the snapshot the answer was made from is still the current one. */
  readonly current: () => boolean
  /** Headers the answer carries that the pipeline adds after the guard (its snapshot's). */
  readonly headers: Readonly<Record<string, string>> | undefined
}

/** A kept answer: the pipeline's response as bytes, with what the fast path needs to serve it. */
export interface CachedAnswer {
  readonly status: number
  readonly body: Buffer
  /**
   * Its headers as `writeHead` takes them (name, value, …), made once when it is kept: content type and length,
   * ETag, Vary and the answer's own, then two slots the fast path fills for each request (REQUEST_SLOTS):
   * `cache-control` and `x-request-id`.
   */
  readonly head: Array<string>
  /** The same for its 304: no content type or length. */
  readonly notModifiedHead: Array<string>
  readonly etag: string
  readonly madeAt: number
  readonly validUntil: number
  readonly stale: boolean
  readonly current: () => boolean
  /** The path as the access line writes it (credentials redacted). */
  readonly logged: string
}

/** The per-request headers at the end of a kept answer's `head` and `notModifiedHead`, in this order. */
export const REQUEST_SLOTS = ["cache-control", "x-request-id"] as const

/** Bytes of kept answers at the most: listed symbols' and the boards' (`bounded`), and everything else (`open`). */
export const ANSWER_BYTES = { bounded: 96 * 1024 * 1024, open: 16 * 1024 * 1024 } as const

/** What an entry costs beyond its body (its key, headers and record), estimated. */
const ENTRY_OVERHEAD = 512

/** A strong ETag: a digest of the bytes (SHA-256 in base64url, its first 22 characters: 132 bits). */
export const etagOf = (body: Uint8Array) => `"${createHash("sha256").update(body).digest("base64url").slice(0, 22)}"`

/** The header a cacheable answer varies by: a signature asked for there makes another answer (AnswerSigning.ts). */
export const VARY = "Accept-Signature"

type Handler = (request: any) => Effect.Effect<unknown, unknown>

/** Every endpoint of one group of an Api, as the Api describes it (HttpApi.reflect). */
const reflectGroup = (api: HttpApi.Top, group: string) => {
  const found = new Map<string, {
    readonly endpoint: HttpApiEndpoint.Top
    readonly annotations: Context.Context<never>
    readonly successes: ReadonlyMap<number, ReadonlyArray<Schema.Top>>
  }>()
  HttpApi.reflect(api, {
    predicate: ({ group: g }) => g.identifier === group,
    onGroup: () => {},
    onEndpoint: ({ endpoint, mergedAnnotations, successes }) => {
      found.set(endpoint.identifier, { endpoint, annotations: mergedAnnotations, successes })
    }
  })
  return found
}

/**
 * The JSON text an endpoint answers for a success value, encoded by its success schema: for the one answer
 * needed before any handler can run (the request gate's liveness while the routes are built).
 */
export const successAnswer = <
  Id extends string,
  Groups extends HttpApiGroup.Constraint,
  const Group extends HttpApiGroup.Identifier<Groups>
>(
  api: HttpApi.HttpApi<Id, Groups>,
  group: Group,
  endpoint: HttpApiGroup.EndpointsWithIdentifier<Groups, Group>["identifier"],
  value: unknown
) => {
  const reflected = reflectGroup(api as unknown as HttpApi.Top, group).get(endpoint)
  const [status, schemas] = [...(reflected?.successes ?? [])][0] ?? []
  if (reflected === undefined || status === undefined || schemas?.length !== 1) {
    throw new Error(`${group}.${endpoint}: no single success schema`)
  }
  const options: SchemaAST.ParseOptions | undefined = Context.getOrUndefined(
    reflected.annotations,
    HttpApi.SuccessParseOptions
  )
  const encoded = Schema.encodeUnknownSync(schemas[0] as Schema.Codec<unknown, unknown>, options)(value)
  return { status, body: Buffer.from(JSON.stringify(encoded), "utf8") }
}

export interface AnswerCacheShape {
  /**
   * The `cached` wrapper for one group's handlers: `cached(endpoint, policy, handler)` returns the handler,
   * which notes how long its answer stays true for the guard to keep it.
   */
  readonly handlersOf: <
    Id extends string,
    Groups extends HttpApiGroup.Constraint,
    const Group extends HttpApiGroup.Identifier<Groups>
  >(
    api: HttpApi.HttpApi<Id, Groups>,
    group: Group
  ) => <F extends (request: any) => Effect.Effect<any, any, never>>(
    endpoint: HttpApiGroup.EndpointsWithIdentifier<Groups, Group>["identifier"],
    policy: AnswerPolicy<any>,
    handler: F
  ) => F
  /** What a wrapped handler noted for the request whose node request is `source` (taken once). */
  readonly takeNote: (source: unknown) => CacheNote | undefined
  /** Keeps a response the pipeline made under `url`; the kept answer. */
  readonly keep: (url: string, logged: string, keep: CacheNote, response: {
    readonly status: number
    readonly body: Uint8Array
    readonly contentType: string
    readonly headers: Readonly<Record<string, string>>
  }) => CachedAnswer
  /** The answer kept under `url` and still true at `now` (one no longer true is dropped). */
  readonly lookup: (url: string, now: number) => CachedAnswer | undefined
  /** Bytes held now (each entry's body and an estimate of the rest). */
  readonly bytes: () => number
}

/** Response headers that belong to one request, not to the answer. */
const PER_REQUEST = new Set([
  "x-request-id",
  "set-cookie",
  "content-length",
  "content-type",
  "cache-control",
  "etag",
  "vary"
])

export class AnswerCache extends Context.Service<AnswerCache, AnswerCacheShape>()("psx/http/AnswerCache") {
  static readonly make = (
    budget: { readonly bounded: number; readonly open: number } = ANSWER_BYTES
  ): AnswerCacheShape => {
    const stores = {
      bounded: new LRUCache<string, CachedAnswer>({ maxSize: budget.bounded }),
      open: new LRUCache<string, CachedAnswer>({ maxSize: budget.open })
    }
    const notes = new WeakMap<object, CacheNote>()
    const note = (source: unknown, keep: CacheNote) => {
      if (typeof source === "object" && source !== null) notes.set(source, keep)
    }

    /** The handler, noting how long its answer stays true when the policy caches it. */
    const wrap = (
      policy: AnswerPolicy<any>,
      handler: Handler,
      args: { readonly request?: { readonly source?: unknown }; readonly params?: unknown; readonly query?: unknown }
    ) => {
      const decoded: Decoded = { params: args.params, query: args.query }
      const instant = policy.pastSnapshot === undefined ? "live" : policy.pastSnapshot(decoded)
      if (instant === undefined) return handler(args)
      const snapshot = instant === "live" ? policy.snapshot() : instant
      const share = instant !== "live" ? "open" : snapshot === undefined ? undefined : policy.share(decoded, snapshot)
      if (snapshot === undefined || share === undefined) return handler(args)
      const current = instant === "live"
        ? () => policy.snapshot() === snapshot
        : () => policy.pastSnapshot!(decoded) === instant
      return Effect.clockWith((clock) => {
        const now = clock.currentTimeMillisUnsafe()
        const made = (outcome: unknown) =>
          note(args.request?.source, {
            share,
            madeAt: now,
            validUntil: instant === "live" ? policy.validUntil(decoded, snapshot, now) : Infinity,
            stale: policy.saysStale?.(outcome) ?? false,
            current,
            headers: instant === "live" ? policy.headers?.(snapshot) : instant.headers
          })
        return handler(args).pipe(
          Effect.tap((value) => Effect.sync(() => made(value))),
          Effect.tapError((error) => Effect.sync(() => policy.cachesFailure(error) ? made(error) : undefined))
        )
      })
    }

    const handlersOf: AnswerCacheShape["handlersOf"] = (api, group) => {
      const endpoints = reflectGroup(api as unknown as HttpApi.Top, group)
      return (name, policy, handler) => {
        const reflected = endpoints.get(name)
        if (reflected === undefined || reflected.endpoint.method !== "GET") {
          throw new Error(`cached: ${group}.${name} is not a GET endpoint of the Api`)
        }
        return ((args: Parameters<typeof wrap>[2] & { readonly endpoint?: unknown }) =>
          args.endpoint === reflected.endpoint
            ? wrap(policy, handler, args)
            : Effect.die(new Error(`cached("${name}") is the handler of another endpoint`))) as typeof handler
      }
    }

    const keep: AnswerCacheShape["keep"] = (url, logged, kept, response) => {
      const body = Buffer.isBuffer(response.body) ? response.body : Buffer.from(response.body)
      const etag = etagOf(body)
      const shared = ["etag", etag, "vary", VARY]
      const own = kept.headers === undefined ? response.headers : { ...response.headers, ...kept.headers }
      for (const name in own) if (!PER_REQUEST.has(name)) shared.push(name, own[name]!)
      const slots = [REQUEST_SLOTS[0], "", REQUEST_SLOTS[1], ""]
      const answer: CachedAnswer = {
        status: response.status,
        body,
        head: ["content-type", response.contentType, "content-length", String(body.length), ...shared, ...slots],
        notModifiedHead: [...shared, ...slots],
        etag,
        madeAt: kept.madeAt,
        validUntil: kept.validUntil,
        stale: kept.stale,
        current: kept.current,
        logged
      }
      const other = kept.share === "bounded" ? stores.open : stores.bounded
      other.delete(url)
      stores[kept.share].set(url, answer, { size: body.length + 2 * url.length + ENTRY_OVERHEAD })
      return answer
    }

    const lookup = (url: string, now: number) => {
      const answer = stores.bounded.get(url) ?? stores.open.get(url)
      if (answer === undefined) return undefined
      if (now < answer.validUntil && now >= answer.madeAt && answer.current()) return answer
      stores.bounded.delete(url)
      stores.open.delete(url)
      return undefined
    }

    const takeNote = (source: unknown) => {
      if (typeof source !== "object" || source === null) return undefined
      const kept = notes.get(source)
      if (kept !== undefined) notes.delete(source)
      return kept
    }

    return {
      handlersOf,
      takeNote,
      keep,
      lookup,
      bytes: () => stores.bounded.calculatedSize + stores.open.calculatedSize
    }
  }

  static readonly layer = Layer.sync(AnswerCache, () => AnswerCache.make())
}
