/**
 * Signed tool results: a `tools/call` result carries, on request, the same
 * Ed25519 signature as a signed HTTP answer (src/http/AnswerSigning.ts), in
 * `_meta["psx/signature"]`, over the result's JSON text (its first content
 * block, the record) and the call it answers.
 *
 * Asking: the call's own `params._meta["psx/signed"]` (`true`, or
 * `{ "nonce": "…" }` to have a nonce echoed), which works on every transport;
 * or, over HTTP, the POST /mcp request's `Accept-Signature` header or
 * `?signed=true` (the guard's ask). Not a tool argument: arguments are each
 * route's own (strict) fields.
 *
 * `_meta["psx/signature"]` holds `content-digest` (of the text), `signature-input`,
 * `signature` and `components`, the values of the covered fields, so a saved
 * result verifies offline (docs/verify-answer.mjs) with the published key:
 * `psx-tool` (the tool's name), `psx-arguments` (the call's arguments as
 * canonical JSON: keys sorted, no white space), `psx-is-error` (`true` for
 * an error record) and `content-digest`, each a line of the RFC 9421 §2.5
 * signature base like a signed answer's fields.
 */
import { Clock, Effect, Layer } from "effect"
import { McpSchema, McpServer } from "effect/ai"
import { canonicalJson } from "../../domain/ledger/Chain.ts"
import { AnswerSigner, type SignatureRequest, SignatureRequested, signContent } from "../http/AnswerSigning.ts"
import { isNonce } from "../http/MessageSignature.ts"

type Handle = Parameters<McpServer.McpServer["Service"]["addTool"]>[0]["handle"]

/** The signature a call's `_meta["psx/signed"]` asks for (a nonce only when it is a short printable string). */
const askedInMeta = (meta: Readonly<Record<string, unknown>> | undefined): SignatureRequest | undefined => {
  const asked = meta?.["psx/signed"]
  if (asked === true) return { label: "sig1" }
  if (typeof asked !== "object" || asked === null) return undefined
  const nonce = (asked as Record<string, unknown>)["nonce"]
  return typeof nonce === "string" && isNonce(nonce) ? { label: "sig1", nonce } : { label: "sig1" }
}

const encoder = new TextEncoder()

/** The result with its signature in `_meta`, when the call or its HTTP request asked (else as it is). */
const signedHandle = (tool: string, handle: Handle, signer: typeof AnswerSigner.Service): Handle => (payload) =>
  Effect.flatMap(handle(payload), (result) =>
    Effect.gen(function*() {
      const text = result instanceof McpSchema.CallToolResult ? result.content[0] : undefined
      if (text?.type !== "text") return result
      const context = yield* Effect.serviceOption(McpSchema.McpRequestContext)
      const ask = (yield* SignatureRequested) ??
        askedInMeta(
          context._tag === "Some" ? context.value.requestMetadata as Record<string, unknown> | undefined : undefined
        )
      if (ask === undefined) return result
      const key = yield* signer.key
      const created = Math.floor((yield* Clock.currentTimeMillis) / 1000)
      const components = {
        "psx-tool": tool,
        "psx-arguments": canonicalJson(payload ?? {}),
        "psx-is-error": String((result as McpSchema.CallToolResult).isError === true)
      }
      const fields = signContent(
        key,
        Object.entries(components).map(([name, value]) => [JSON.stringify(name), value] as const),
        encoder.encode(text.text),
        ask,
        created
      )
      const signed = result as McpSchema.CallToolResult
      return new McpSchema.CallToolResult({
        ...signed,
        _meta: { ...(signed._meta ?? {}), "psx/signature": { ...fields, components } }
      })
    }))

/**
 * The McpServer for registrations whose tool results are signed on request. Put it under `boundedServer`
 * (Bounds.ts) so the signature covers the bounded result.
 */
export const SignedResults = Layer.effect(
  McpServer.McpServer,
  Effect.gen(function*() {
    const server = yield* McpServer.McpServer
    const signer = yield* AnswerSigner
    const wrapped = Object.create(server) as typeof server
    Object.defineProperty(wrapped, "addTool", {
      value: (options: Parameters<typeof server.addTool>[0]) =>
        server.addTool({ ...options, handle: signedHandle(options.tool.name, options.handle, signer) })
    })
    return wrapped
  })
)
