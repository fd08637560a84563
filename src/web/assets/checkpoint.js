// @ts-check
// The latest signed checkpoint of this ledger and the service's public
// signing key, shown as served, with a check of the signature in this
// browser (Web Crypto) when the key's format allows it.
import { api, describeError, el, timeText } from "./api.js"
import { showError } from "./ui.js"

const firstString = (obj, names) => {
  for (const n of names) if (typeof obj?.[n] === "string" && obj[n] !== "") return { name: n, value: obj[n] }
  return undefined
}
const SIGNED = ["signed", "signed_bytes", "signed_text", "signed_data", "message", "payload", "statement"]
const SIGNATURE = ["signature", "sig", "signature_base64"]
const KEY_ID = ["key_id", "kid", "keyId", "signing_key_id"]
const PUBLIC = ["public_key_pem", "public_key", "pem", "spki", "public_key_base64", "key", "x"]

const fromBase64 = (text) => {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/").replace(/\s+/g, "")
  const bin = atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4))
  return Uint8Array.from(bin, (c) => c.charCodeAt(0))
}

/**
 * The key material as Web Crypto wants it, or undefined when the format is not one we know.
 * @returns {{ format: "jwk", data: JsonWebKey } | { format: "spki" | "raw", data: Uint8Array<ArrayBuffer> } | undefined}
 */
const keyMaterial = (key) => {
  if (key.jwk && typeof key.jwk === "object") return { format: "jwk", data: key.jwk }
  const pub = firstString(key, PUBLIC)
  if (!pub) return undefined
  const text = pub.value.trim()
  if (text.startsWith("-----BEGIN PUBLIC KEY-----")) {
    return { format: "spki", data: fromBase64(text.replace(/-----[^-]+-----/g, "")) }
  }
  if (/^[0-9a-f]{64}$/i.test(text)) return { format: "raw", data: Uint8Array.from(text.match(/../g) ?? [], (h) => parseInt(h, 16)) }
  try {
    const bytes = fromBase64(text)
    return { format: bytes.length === 32 ? "raw" : "spki", data: bytes }
  } catch {
    return undefined
  }
}

const verifyInBrowser = async (key, algorithm, signed, signature) => {
  const material = keyMaterial(key)
  if (!material) return "This browser cannot read the key's format; check it with the command-line tools of your choice."
  const alg = /ecdsa|p-?256|es256/i.test(algorithm ?? "") ? { name: "ECDSA", namedCurve: "P-256" } : { name: "Ed25519" }
  const verifyAlg = alg.name === "ECDSA" ? { name: "ECDSA", hash: "SHA-256" } : { name: "Ed25519" }
  try {
    const cryptoKey = material.format === "jwk"
      ? await crypto.subtle.importKey("jwk", material.data, alg, false, ["verify"])
      : await crypto.subtle.importKey(material.format, material.data, alg, false, ["verify"])
    const ok = await crypto.subtle.verify(verifyAlg, cryptoKey, fromBase64(signature), new TextEncoder().encode(signed))
    return ok ? true : false
  } catch (e) {
    return `This browser could not check it (${e instanceof Error ? e.message : String(e)}).`
  }
}

/** A checkpoint's field in words: "stream_id" → "Stream id". @param {string} name */
const label = (name) => `${name.charAt(0).toUpperCase()}${name.slice(1).replaceAll("_", " ")}`

const facts = (obj, skip) =>
  el(
    "dl",
    { class: "facts" },
    Object.entries(obj)
      .filter(([k, v]) => !skip.includes(k) && v !== null && typeof v !== "object")
      .map(([k, v]) => [el("dt", {}, label(k)), el("dd", {}, typeof v === "string" && v.length > 40 ? el("code", { class: "hash" }, v) : typeof v === "string" && /^\d{4}-\d{2}-\d{2}T/.test(v) ? el("time", { datetime: v }, timeText(v)) : String(v))])
  )

export const renderCheckpoint = async (out) => {
  const [cp, keys] = await Promise.all([api("GET", "/v1/me/ledger/checkpoint"), api("GET", "/v1/ledger/signing-key", { token: null })])
  if (cp.status === 404 && cp.body?.message?.startsWith("no route")) {
    return out.replaceChildren(el("p", { class: "notice" }, "Signed checkpoints are not available on this server yet."))
  }
  if (cp.status === 404) return out.replaceChildren(el("p", { class: "notice" }, "No checkpoint yet: the ledger is empty."))
  if (!cp.ok) return showError(out, cp, () => renderCheckpoint(out))
  const checkpoint = cp.body
  const signed = firstString(checkpoint, SIGNED)
  const signature = firstString(checkpoint, SIGNATURE)
  const keyId = firstString(checkpoint, KEY_ID)
  const parts = [
    el("h3", {}, "Checkpoint"),
    facts(checkpoint, [signed?.name, signature?.name]),
    signed ? [el("p", {}, el("strong", {}, "Signed text"), ` (${signed.name}, UTF-8, exactly as signed: its times are UTC)`), el("pre", { class: "signed", tabindex: "0" }, signed.value)] : [],
    signature ? [el("p", {}, el("strong", {}, "Signature"), " (base64)"), el("pre", { class: "signed", tabindex: "0" }, signature.value)] : []
  ]
  let key
  if (keys.ok) {
    const list = Array.isArray(keys.body) ? keys.body : Array.isArray(keys.body?.keys) ? keys.body.keys : [keys.body]
    key = list.find((k) => keyId && firstString(k, KEY_ID)?.value === keyId.value) ?? (list.length === 1 ? list[0] : undefined)
    parts.push(el("h3", {}, "Public key"))
    if (key) {
      const pub = firstString(key, PUBLIC)
      parts.push(facts(key, [pub?.name]), pub ? el("pre", { class: "signed", tabindex: "0" }, pub.value) : [])
    } else {
      parts.push(el("p", { class: "notice" }, `No published key has the id ${keyId?.value ?? "(none given)"}.`))
    }
  } else {
    parts.push(el("p", { class: "notice" }, keys.status === 404 ? "The public signing key is not published on this server yet." : `The public signing key is not available: ${describeError(keys)}`))
  }
  if (key && signed && signature) {
    const button = el("button", { type: "button", class: "secondary" }, "Check the signature in this browser")
    const result = el("p", { role: "status", "aria-live": "polite" })
    button.addEventListener("click", async () => {
      result.textContent = "Checking…"
      const ok = await verifyInBrowser(key, firstString(checkpoint, ["algorithm", "alg"])?.value ?? firstString(key, ["algorithm", "alg"])?.value, signed.value, signature.value)
      result.className = ok === true ? "ok" : ok === false ? "error" : "notice"
      result.textContent = ok === true ? "The signature is valid for this key." : ok === false ? "The signature does NOT match this key." : ok
    })
    parts.push(button, result)
  }
  out.replaceChildren(...parts.flat())
}
