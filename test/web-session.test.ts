/**
 * The website's cookie session (src/ledger/accounts/WebSession.ts) over a real loopback server: the cookie's
 * attributes and lifetime, reads and writes with it, the Origin and CSRF checks on every write, sign-out of this
 * browser and of every browser, and a revoked credential ending the sessions opened with it. The bearer API answers
 * as before.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { HttpServer } from "effect/http"
import { TestApp } from "./support/TestApp.ts"

const NOW = "2026-08-12T07:00:00.000Z"
const HOUR = 3_600_000

/** `at` is `after` past NOW, give or take the few minutes the shifted clock runs on during the test. */
const assertAbout = (at: string, after: number) => {
  const late = Date.parse(at) - Date.parse(NOW) - after
  assert.isTrue(late >= 0 && late < 10 * 60_000, `${at} is ${after / HOUR} h after ${NOW}`)
}

const baseUrl = Effect.map(HttpServer.HttpServer, (server) => {
  const address = server.address
  if (address._tag === "UnixPathAddress") throw new Error("the test server is not on TCP")
  return `http://127.0.0.1:${address.port}`
})

/** A browser's cookie jar of one: the cookie `psx_web` as the last answer set it. */
const browser = (base: string) => {
  let cookie = ""
  const call = async (
    method: string,
    path: string,
    options: { body?: unknown; origin?: string | null; csrf?: string } = {}
  ) => {
    const headers: Record<string, string> = { accept: "application/json" }
    if (cookie !== "") headers.cookie = cookie
    if (options.origin !== null) headers.origin = options.origin ?? base
    if (options.csrf !== undefined) headers["x-csrf-token"] = options.csrf
    if (options.body !== undefined) headers["content-type"] = "application/json"
    const r = await fetch(`${base}${path}`, {
      method,
      headers,
      body: options.body === undefined ? null : JSON.stringify(options.body)
    })
    const set = r.headers.get("set-cookie")
    if (set !== null) cookie = /Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(set) ? "" : set.split(";")[0]!
    return { status: r.status, body: await r.json() as any, setCookie: set }
  }
  return { call, cookie: () => cookie, setCookie: (c: string) => (cookie = c) }
}

const newToken = async (base: string) =>
  (await (await fetch(`${base}/v1/me/session`, { method: "POST" })).json() as { token: string }).token

describe("website sign-in", () => {
  layer(TestApp({ now: NOW }), { timeout: 120_000 })("on a loopback server", (it) => {
    it.effect("a cookie with its attributes; reads and CSRF-checked writes; a new tab shares it", () =>
      Effect.flatMap(baseUrl, (base) =>
        Effect.promise(async () => {
          const token = await newToken(base)
          const tab = browser(base)
          assert.deepStrictEqual((await tab.call("GET", "/web/session")).body, { signed_in: false })
          // Refused without this origin: a cross-site form cannot sign a visitor in (login CSRF).
          assert.strictEqual(
            (await tab.call("POST", "/web/session", { body: { token }, origin: "https://evil.example" })).status,
            403
          )
          assert.strictEqual(
            (await tab.call("POST", "/web/session", { body: { token: "psx_s_not_a_real_token_at_all" } })).status,
            401
          )
          const signed = await tab.call("POST", "/web/session", { body: { token } })
          assert.strictEqual(signed.status, 200)
          const attributes = signed.setCookie!.split(";").map((a) => a.trim().toLowerCase())
          for (const a of ["httponly", "samesite=strict", "path=/"]) assert.include(attributes, a)
          assert.isFalse(
            attributes.some((a) => a.startsWith("max-age")),
            "without 'remember', a browser-session cookie"
          )
          assert.isFalse(attributes.includes("secure"), "plain HTTP on loopback: not Secure")
          // 12 hours after sign-in: from NOW (07:00Z, the shifted clock runs on by seconds) to about 19:00Z.
          assertAbout(signed.body.expires_at, 12 * HOUR)
          assert.notInclude(JSON.stringify(signed.body), token, "the token never comes back")
          const csrf = signed.body.csrf_token as string

          // Another tab of the same browser: the same cookie, no token needed.
          const other = browser(base)
          other.setCookie(tab.cookie())
          assert.strictEqual((await other.call("GET", "/web/session")).body.signed_in, true)
          assert.strictEqual((await other.call("GET", "/v1/me/holdings", { origin: null })).status, 200)

          const write = { grants: ["portfolio:read"], label: "from the website" }
          assert.strictEqual((await tab.call("POST", "/v1/me/keys", { body: write, csrf })).status, 201)
          const crossSite = await tab.call("POST", "/v1/me/keys", { body: write, csrf, origin: "https://evil.example" })
          assert.strictEqual(crossSite.status, 403)
          assert.strictEqual(crossSite.body.error, "FORBIDDEN")
          assert.strictEqual((await tab.call("POST", "/v1/me/keys", { body: write })).status, 403, "no CSRF token")
          assert.strictEqual(
            (await tab.call("POST", "/v1/me/keys", { body: write, csrf: "0".repeat(64) })).status,
            403,
            "a wrong one"
          )
          assert.strictEqual(
            (await tab.call("POST", "/v1/me/keys", { body: write, csrf, origin: null })).status,
            403,
            "no Origin"
          )
          // The bearer API is unchanged: a token needs neither.
          const bearer = await fetch(`${base}/v1/me/keys`, {
            method: "POST",
            headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
            body: JSON.stringify(write)
          })
          assert.strictEqual(bearer.status, 201)

          // Sign out of this browser: the cookie is cleared and the session is over even if replayed.
          const kept = tab.cookie()
          const out = await tab.call("POST", "/web/session/end", { body: {}, csrf })
          assert.strictEqual(out.status, 200)
          assert.match(out.setCookie ?? "", /psx_web=;|Max-Age=0/i)
          other.setCookie(kept)
          assert.strictEqual((await other.call("GET", "/v1/me/holdings")).status, 401)
        })))

    it.effect("the sign-in routes are in /openapi.json with their cookie and CSRF rules", () =>
      Effect.flatMap(baseUrl, (base) =>
        Effect.promise(async () => {
          const doc = await (await fetch(`${base}/openapi.json`)).json() as any
          assert.deepStrictEqual(Object.keys(doc.paths["/web/session"]).sort(), ["get", "post"])
          assert.deepStrictEqual(Object.keys(doc.paths["/web/session/end"]), ["post"])
          const signIn = doc.paths["/web/session"].post
          const body = signIn.requestBody.content["application/json"].schema
          const fields = body.$ref === undefined
            ? body.properties
            : doc.components.schemas[body.$ref.split("/").at(-1)].properties
          assert.deepStrictEqual(Object.keys(fields).sort(), ["remember", "token"])
          assert.includeMembers(Object.keys(signIn.responses), ["200", "401", "403"])
          for (const operation of [doc.paths["/web/session"].get, signIn, doc.paths["/web/session/end"].post]) {
            for (
              const rule of ["HttpOnly", "SameSite=Strict", "Secure", "X-CSRF-Token", "Origin", "30 days", "12 hours"]
            ) {
              assert.include(operation.description, rule, `${operation.summary}: ${rule}`)
            }
          }
          // The route table also refuses what it refuses elsewhere: a query on a GET that takes none.
          assert.strictEqual((await fetch(`${base}/web/session?x=1`)).status, 400)
        })))

    it.effect("remember this device lasts 30 days; sign out everywhere; revoking the token ends its sessions", () =>
      Effect.flatMap(baseUrl, (base) =>
        Effect.promise(async () => {
          const token = await newToken(base)
          const phone = browser(base)
          const laptop = browser(base)
          const remembered = await phone.call("POST", "/web/session", { body: { token, remember: true } })
          // 30 days × 86,400 s = 2,592,000 s.
          assert.include(remembered.setCookie!, "Max-Age=2592000")
          assertAbout(remembered.body.expires_at, 30 * 24 * HOUR)
          const signed = await laptop.call("POST", "/web/session", { body: { token } })
          const everywhere = await laptop.call("POST", "/web/session/end", {
            body: { everywhere: true },
            csrf: signed.body.csrf_token
          })
          assert.strictEqual(everywhere.body.ended, 2)
          assert.strictEqual((await phone.call("GET", "/v1/me/holdings")).status, 401)

          // A revoked credential ends the sessions opened with it.
          const again = await phone.call("POST", "/web/session", { body: { token } })
          assert.strictEqual(again.status, 200)
          const keys = await (await fetch(`${base}/v1/me/keys`, { headers: { authorization: `Bearer ${token}` } }))
            .json() as any
          const session = keys.items.find((k: any) => k.kind === "session")
          await fetch(`${base}/v1/me/keys/${session.id}`, {
            method: "DELETE",
            headers: { authorization: `Bearer ${token}` }
          })
          assert.strictEqual((await phone.call("GET", "/v1/me/holdings")).status, 401)
          assert.deepStrictEqual((await phone.call("GET", "/web/session")).body, { signed_in: false })
        })))
  })
})
