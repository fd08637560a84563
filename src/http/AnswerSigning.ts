/**
 * Signed answers, on request: an answer carries HTTP Message Signatures
 * (RFC 9421) with a Content-Digest (RFC 9530), signed with the deployment's
 * Ed25519 key, so a client can later prove what it was told
 * (docs/verify-answer.mjs checks a saved answer offline).
 *
 * Asking: a request header `Accept-Signature` (RFC 9421 §5.1; any value: the
 * answer is signed with this service's key, algorithm and components, under
 * the first label asked for, echoing its `nonce` if any), or the query
 * parameter `signed=true`. The guard (Guard.ts) calls `signingAsk` on every
 * request: a request with neither pays a header lookup and a scan of its
 * query for `signed`, nothing more.
 *
 * `signed` is the guard's parameter, never a route's: it is taken out of the
 * URL the router sees (`signed=true` or `signed=false`, any number of times),
 * so every route takes it, even those whose query refuses unknown fields (the
 * screener); any other value is 400 INVALID_REQUEST. Its name and value are
 * read percent-decoded (`%73igned=%74rue` is `signed=true`). A nonce in
 * `Accept-Signature` that cannot be echoed as sent is 400 too. The signature
 * covers the query as the client sent it, `signed=true` included, and the
 * path in its one spelling. A refusal of a request over its rate limit (429)
 * is not signed: signing is the costly part of an answer.
 *
 * What is signed (`Signature-Input`):
 * `<label>=("@method";req "@path";req "@query";req "@status" "content-digest");created=<unix s>;keyid="<id>";alg="ed25519"`.
 * The method, path and query are the request's (RFC 9421 §2.4: request
 * components in a response carry `req`); the path is the one the service
 * routed, in its one spelling (CanonicalUrl.ts); `created` is when the
 * answer was served; `keyid` is the key's id as GET /v1/ledger/signing-key
 * publishes it. Every answer to a request that asks is signed, errors (400,
 * 404, 429, 500) included; a streamed body (none among the JSON routes) is
 * not. The key is the ledger's checkpoint key (src/ledger/signing provides
 * `AnswerSigner`); this module knows only the interface.
 */
import { Context, type Effect } from "effect"
import { type HttpBody, type HttpServerRequest, HttpServerResponse } from "effect/http"
import {
  acceptedSignature,
  acceptSignatureProblem,
  type Component,
  contentDigest,
  signatureBase,
  signatureParams
} from "./MessageSignature.ts"

/** The deployment's signing key as the answer signer uses it. */
export interface AnswerKey {
  /** The key's id, as GET /v1/ledger/signing-key publishes it. */
  readonly keyId: string
  /** An Ed25519 signature of the bytes. */
  readonly sign: (bytes: Uint8Array) => Uint8Array
}

/** Signs answers on request; provided by the ledger's signing module with the deployment key. */
export class AnswerSigner extends Context.Service<AnswerSigner, {
  /** The key, read (or made) on first use; a key that cannot be had is a defect. */
  readonly key: Effect.Effect<AnswerKey>
}>()("psx/http/AnswerSigner") {}

/** A request's ask for a signature: the label to sign under and a nonce to echo. */
export interface SignatureRequest {
  readonly label: string
  readonly nonce?: string
}

/**
 * The signature the request being handled asked for (set by the guard; absent when it asked for none), so a
 * handler that signs inside its answer (an MCP tool result) follows the same ask.
 */
export const SignatureRequested = Context.Reference<SignatureRequest | undefined>("psx/http/SignatureRequested", {
  defaultValue: () => undefined
})

/** What the guard does with a request that mentions signing. */
export interface SigningAsk {
  /** The signature asked for; undefined when none is (only `signed=false`). */
  readonly request: SignatureRequest | undefined
  /** The URL the router sees: the request's, without `signed`. */
  readonly routedUrl: string
  /** A `signed` value other than true or false: the request is refused with this message. */
  readonly invalid?: string
}

/** A query name or value as form decoding reads it (`+` a space, percent-escapes decoded); as sent when malformed. */
const decoded = (raw: string) => {
  try {
    return decodeURIComponent(raw.replaceAll("+", " "))
  } catch {
    return raw
  }
}

/** The query without its `signed` parameters, and what they asked. */
const takeSigned = (url: string, q: number) => {
  const kept: Array<string> = []
  let asked = false
  let invalid: string | undefined
  for (const part of url.slice(q + 1).split("&")) {
    const eq = part.indexOf("=")
    if (decoded(eq === -1 ? part : part.slice(0, eq)) !== "signed") {
      kept.push(part)
      continue
    }
    const value = eq === -1 ? "" : decoded(part.slice(eq + 1))
    if (value === "true") asked = true
    else if (value !== "false") invalid ??= value
  }
  return { routedUrl: url.slice(0, q) + (kept.length > 0 ? `?${kept.join("&")}` : ""), asked, invalid }
}

/** What a request asks of the signer, or undefined when it mentions signing nowhere (the common case, kept cheap). */
export const signingAsk = (request: HttpServerRequest.HttpServerRequest): SigningAsk | undefined => {
  const header = request.headers["accept-signature"]
  const url = request.url
  const q = url.indexOf("?")
  // A query may spell `signed` or its value with percent-escapes (`%73igned=%74rue`): both are decoded.
  const mentions = q !== -1 && (url.includes("signed", q) || url.includes("%", q))
  if (header === undefined && !mentions) return undefined
  const query = mentions ? takeSigned(url, q) : { routedUrl: url, asked: false, invalid: undefined }
  const asked = header !== undefined || query.asked || query.invalid !== undefined
  if (!asked && query.routedUrl === url) return undefined
  const invalid = query.invalid !== undefined
    ? `query parameter \`signed\`: expected true or false, got ${JSON.stringify(query.invalid.slice(0, 40))}`
    : acceptSignatureProblem(header)
  return {
    request: asked ? acceptedSignature(header) : undefined,
    routedUrl: query.routedUrl,
    ...(invalid === undefined ? {} : { invalid })
  }
}

const encoder = new TextEncoder()

/** The bytes of a body the server sends whole; undefined for a streamed one. */
const contentOf = (body: HttpBody.HttpBody): Uint8Array | undefined =>
  body._tag === "Uint8Array"
    ? body.body
    : body._tag === "Empty"
    ? new Uint8Array(0)
    : body._tag === "Raw" && typeof body.body === "string"
    ? encoder.encode(body.body)
    : body._tag === "Raw" && body.body instanceof Uint8Array
    ? body.body
    : undefined

/** The three fields a signature travels in: the digest, the signature's input and the signature itself. */
export type SignatureFields = {
  readonly "content-digest": string
  readonly "signature-input": string
  readonly signature: string
}

/** Signs `content` with the components before it (in order), the content's digest last. */
export const signContent = (
  key: AnswerKey,
  components: ReadonlyArray<Component>,
  content: Uint8Array,
  ask: SignatureRequest,
  created: number
): SignatureFields => {
  const digest = contentDigest(content)
  const covered: ReadonlyArray<Component> = [...components, ["\"content-digest\"", digest]]
  const params = signatureParams(covered.map(([identifier]) => identifier), {
    created,
    keyid: key.keyId,
    alg: "ed25519",
    nonce: ask.nonce
  })
  const signature = Buffer.from(key.sign(encoder.encode(signatureBase(covered, params)))).toString("base64")
  return {
    "content-digest": digest,
    "signature-input": `${ask.label}=${params}`,
    signature: `${ask.label}=:${signature}:`
  }
}

/** The answer with its Content-Digest, Signature-Input and Signature (a streamed answer is left as it is). */
export const signedResponse = (
  key: AnswerKey,
  response: HttpServerResponse.HttpServerResponse,
  request: { readonly method: string; readonly url: string },
  ask: SignatureRequest,
  created: number
): HttpServerResponse.HttpServerResponse => {
  const content = contentOf(response.body)
  if (content === undefined) return response
  const q = request.url.indexOf("?")
  const fields = signContent(
    key,
    [
      ["\"@method\";req", request.method],
      ["\"@path\";req", q === -1 ? request.url : request.url.slice(0, q)],
      ["\"@query\";req", q === -1 ? "?" : request.url.slice(q)],
      ["\"@status\"", String(response.status)]
    ],
    content,
    ask,
    created
  )
  return HttpServerResponse.setHeaders(response, fields)
}
