/**
 * The text HTTP Message Signatures (RFC 9421) sign, and the digest of
 * RFC 9530, as pure functions: no key, no clock, no request. The answer
 * signer (AnswerSigning.ts) and the MCP tool results (src/mcp/SignedResults.ts)
 * build their signature bases here; docs/verify-answer.mjs rebuilds the same
 * text on the client's side.
 *
 * - `contentDigest`: the `Content-Digest` field value, `sha-256=:<base64>:`
 *   (RFC 9530 §2: a dictionary whose value is a byte sequence).
 * - `signatureParams`: the inner list of covered component identifiers and
 *   the signature's parameters (RFC 9421 §2.3), which is both the value of
 *   `Signature-Input` after its label and the last line of the base.
 * - `signatureBase`: RFC 9421 §2.5: one line `<identifier>: <value>` per
 *   covered component, in order, then `"@signature-params": <params>`, lines
 *   joined by a single LF with no trailing newline.
 * - `acceptedSignature`: what a request's `Accept-Signature` (RFC 9421 §5.1)
 *   asks that this signer honours: the label, and a nonce to echo.
 */
import { createHash } from "node:crypto"

/** A covered component: its serialized identifier (`"@status"`, `"@method";req`) and its value. */
export type Component = readonly [identifier: string, value: string]

/** The signature's parameters, serialized in this order (those absent are left out). */
export interface SignatureParameters {
  /** When the message was signed, in whole seconds since the Unix epoch. */
  readonly created: number
  readonly keyid: string
  readonly alg: "ed25519"
  /** A value the requester asked to have echoed (Accept-Signature). */
  readonly nonce?: string | undefined
}

/** The Content-Digest field value of a content (RFC 9530): its SHA-256 as a structured byte sequence. */
export const contentDigest = (content: Uint8Array): string =>
  `sha-256=:${createHash("sha256").update(content).digest("base64")}:`

/** A structured-field string (RFC 8941 §3.3.3): quoted, with `\` and `"` escaped. */
const sfString = (value: string) => `"${value.replace(/[\\"]/gu, (c) => `\\${c}`)}"`

/** The serialized `@signature-params` value: `("id" "id";req …);created=…;keyid="…";alg="…"[;nonce="…"]`. */
export const signatureParams = (identifiers: ReadonlyArray<string>, params: SignatureParameters): string =>
  `(${identifiers.join(" ")});created=${params.created};keyid=${sfString(params.keyid)};alg=${sfString(params.alg)}` +
  (params.nonce === undefined ? "" : `;nonce=${sfString(params.nonce)}`)

/** The signature base (RFC 9421 §2.5) of the components and the serialized signature parameters. */
export const signatureBase = (components: ReadonlyArray<Component>, params: string): string =>
  [...components.map(([identifier, value]) => `${identifier}: ${value}`), `"@signature-params": ${params}`].join("\n")

/** A signature label or a nonce this signer takes from a request (anything else is ignored). */
const LABEL = /^[a-z*][a-z0-9_.*-]{0,31}$/u
const NONCE = /;\s*nonce="([\x20-\x21\x23-\x5b\x5d-\x7e]{1,128})"/u

/** A nonce this signer echoes: 1 to 128 printable ASCII characters other than `"` and `\`. */
export const isNonce = (value: string): boolean => /^[\x20-\x21\x23-\x5b\x5d-\x7e]{1,128}$/u.test(value)

/**
 * Why a request's Accept-Signature cannot be honoured as sent, or undefined: a nonce this signer would not
 * echo as given (with `"` or `\`, empty, or over 128 characters) is refused rather than dropped.
 */
export const acceptSignatureProblem = (header: string | undefined): string | undefined =>
  header !== undefined && /;\s*nonce=/u.test(header) && NONCE.exec(header) === null
    ? "Accept-Signature: a nonce must be a quoted string of 1 to 128 printable ASCII characters other than \" and \\"
    : undefined

/** What a request's Accept-Signature asks that is honoured: its first label (else `sig1`) and its nonce, if any. */
export const acceptedSignature = (header: string | undefined): { readonly label: string; readonly nonce?: string } => {
  const label = header?.split("=", 1)[0]?.trim() ?? ""
  const nonce = header === undefined ? undefined : NONCE.exec(header)?.[1]
  return { label: LABEL.test(label) ? label : "sig1", ...(nonce === undefined ? {} : { nonce }) }
}
