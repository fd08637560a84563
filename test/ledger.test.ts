/**
 * The portfolio ledger over HTTP and in the store: identity and grants,
 * recording and rejections, idempotency, the database refusing changes to
 * events, tamper detection, rebuilds, catch-up readers and concurrent
 * writers, signed checkpoints verified offline, credentials. Runs on the
 * embedded store and, in CI, on the real PostgreSQL (the tests that hold one
 * transaction open while another commits need several connections at once,
 * and run there only; every other test runs on both). Time comes from a
 * clock fixed to 2026-11-21 (`TestApp({ now })`), never the machine's date.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Context, Deferred, Effect, Exit, Fiber, Layer, Option, Redacted } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"
import { SqlClient } from "effect/sql"
import { spawnSync } from "node:child_process"
import { createPublicKey, generateKeyPairSync, verify } from "node:crypto"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { canonicalJson, chainInputV2 } from "../domain/ledger/Chain.ts"
import {
  decodeExportLine,
  type ExportedEvent,
  type SignedCheckpoint,
  verifyExport
} from "../domain/ledger/Checkpoint.ts"
import { AppConfig } from "../src/config/AppConfig.ts"
import { Api } from "../src/http/Api.ts"
import { RequiredGrant } from "../src/ledger/accounts/BearerAuth.ts"
import { Keys } from "../src/ledger/accounts/Keys.ts"
import { Audit } from "../src/ledger/events/Audit.ts"
import { COLUMNS, EMPTY_HEAD, EventStore, sha256 } from "../src/ledger/events/EventStore.ts"
import { eventRows } from "../src/ledger/events/StoredRows.ts"
import { Portfolio, streamOf } from "../src/ledger/portfolio/Portfolio.ts"
import { positionsOf, readHoldings, samePositions } from "../src/ledger/portfolio/Projection.ts"
import { LedgerSigner, publicKeysFromPem, verifyWith } from "../src/ledger/signing/Signing.ts"
import { pollUntil } from "./support/Eventually.ts"
import {
  assertFailed,
  assertOk,
  assertSucceeded,
  bodyOf,
  del,
  get,
  payloadOf,
  post,
  put,
  TestApp
} from "./support/TestApp.ts"
import { isRealPostgres } from "./support/TestDatabase.ts"

const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
const session = Effect.map(post("/v1/me/session", {}), (r) => {
  assertOk(r, 201)
  return r.body.token as string
})
const send = (token: string, body: unknown, headers: Record<string, string> = {}) =>
  post("/v1/me/transactions", body, { ...bearer(token), ...headers })
const userOf = (token: string) => Effect.flatMap(Keys, (k) => k.authenticate(token))

// The service's clock in this file starts at 2026-11-21 10:00 in Karachi and runs at the real rate (so
// sleeps and timeouts still work): no result depends on the year the suite runs in.
const START = Date.parse("2026-11-21T05:00:00.000Z")

// The signing key for this file's checkpoints: a configured key, so the test writes no key file.
const signingKey = generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString()
// The key the service signed with before a rotation: pinned as trusted beside the current one.
const earlierKey = generateKeyPairSync("ed25519").privateKey
const earlierKeyPem = earlierKey.export({ type: "pkcs8", format: "pem" }).toString()
const earlierPublicPem = createPublicKey(earlierKey).export({ type: "spki", format: "pem" }).toString()

// HUBC closes recorded in the eod series: 215.42 (2026-05-22), 219.50 (2026-05-25).
const buyHubc = { kind: "buy", symbol: "HUBC", quantity: 100, price: 215.42, fees: 120, trade_date: "2026-05-22" }

const App = TestApp({
  withPack: true,
  now: new Date(START).toISOString(),
  ledgerSigningKey: Option.some(Redacted.make(signingKey)),
  ledgerTrustedKeys: Option.some(earlierPublicPem)
})

layer(App, { timeout: 600_000, excludeTestServices: true })("portfolio ledger", (it) => {
  describe("sessions and credentials", () => {
    it.effect("a session is 201 with a token and a user; the token works as a bearer credential", () =>
      Effect.gen(function*() {
        const r = yield* post("/v1/me/session", {})
        assertOk(r, 201)
        assert.match(r.body.token, /^psx_s_/)
        assert.isString(r.body.user.id)
        assert.deepStrictEqual(r.body.grants, ["portfolio:read", "portfolio:write"])
        const h = yield* get("/v1/me/holdings", bearer(r.body.token))
        assertOk(h)
        assert.deepStrictEqual(h.body.items, [])
        const sql = yield* SqlClient.SqlClient
        const stored = yield* sql<
          { n: number }
        >`select count(*)::int as n from api_keys where secret_hash = ${r.body.token}`
        assert.strictEqual(stored[0]!.n, 0, "the secret itself is never stored")
      }))

    it.effect("missing, unknown and revoked credentials are 401; a key without the grant is 403", () =>
      Effect.gen(function*() {
        assertFailed(yield* get("/v1/me/holdings"), 401, "UNAUTHORIZED")
        assertFailed(
          yield* get("/v1/me/portfolio", { authorization: "Bearer psx_s_nope_nope_nope" }),
          401,
          "UNAUTHORIZED"
        )
        assertFailed(yield* get("/v1/me/analyze", { authorization: "Basic abc" }), 401, "UNAUTHORIZED")
        const token = yield* session
        const readOnly = yield* post("/v1/me/keys", { grants: ["portfolio:read"], label: "reader" }, bearer(token))
        assertOk(readOnly, 201)
        assert.match(readOnly.body.key, /^psx_k_/)
        assert.strictEqual((yield* get("/v1/me/holdings", bearer(readOnly.body.key))).status, 200)
        assertFailed(yield* send(readOnly.body.key, buyHubc), 403, "FORBIDDEN")
        const writeOnly = yield* post("/v1/me/keys", { grants: ["portfolio:write"] }, bearer(token))
        assertSucceeded(writeOnly)
        assert.strictEqual((yield* send(writeOnly.body.key, buyHubc)).status, 201)
        assertFailed(yield* get("/v1/me/holdings", bearer(writeOnly.body.key)), 403, "FORBIDDEN")
        // The grant comes before anything the request carries is decoded: a credential without it learns nothing
        // about its body, query or headers, not even that they are malformed.
        const malformed = { kind: "buy", symbol: "HUBC", quantity: "lots" }
        assertFailed(yield* send(readOnly.body.key, malformed), 403, "FORBIDDEN")
        assertFailed(
          yield* put("/v1/me/settings", { auto_record_entitlements: "yes", extra: 1 }, bearer(readOnly.body.key)),
          403,
          "FORBIDDEN"
        )
        assertFailed(yield* get("/v1/me/portfolio?limit=1e302", bearer(writeOnly.body.key)), 403, "FORBIDDEN")
        assertFailed(yield* send(writeOnly.body.key, malformed), 400, "INVALID_REQUEST")
        assert.strictEqual(
          bodyOf(yield* get("/v1/me/ledger", bearer(token))).total,
          1,
          "only the write key's buy is recorded"
        )
        const keys = yield* get("/v1/me/keys", bearer(token))
        assertSucceeded(keys)
        assert.strictEqual(keys.body.items.length, 3)
        assert.deepStrictEqual([keys.body.total, keys.body.next_cursor], [3, null])
        assert.isTrue(keys.body.items.every((k) => !("key" in k)), "no secrets listed")
        const revoked = yield* Effect.flatMap(
          Effect.succeed(readOnly.body.id as string),
          (id) =>
            Effect.gen(function*() {
              const keysService = yield* Keys
              const principal = yield* keysService.authenticate(token)
              return yield* keysService.revoke(principal, id)
            })
        )
        assert.isString(revoked.revoked_at)
        assertFailed(yield* get("/v1/me/holdings", bearer(readOnly.body.key)), 401, "UNAUTHORIZED")
      }))

    it.effect("a user can never read or write another user's ledger", () =>
      Effect.gen(function*() {
        const alice = yield* session
        const bob = yield* session
        assert.strictEqual((yield* send(alice, buyHubc)).status, 201)
        const bobs = yield* get("/v1/me/holdings", bearer(bob))
        assertSucceeded(bobs)
        assert.deepStrictEqual(bobs.body.items, [])
        const alices = yield* get("/v1/me/ledger", bearer(alice))
        assertSucceeded(alices)
        assert.strictEqual(alices.body.total, 1)
        // Bob cannot reverse Alice's event: it is not in his stream.
        const r = yield* send(bob, { kind: "reversal", event_id: alices.body.items[0]!.event_id, reason: "not mine" })
        assertFailed(r, 400, "INVALID_REQUEST")
        assert.strictEqual(bodyOf(yield* get("/v1/me/ledger", bearer(alice))).total, 1)
      }))
  })

  describe("recording", () => {
    it.effect("recording: holdings at the delayed quote; rejections change nothing", () =>
      Effect.gen(function*() {
        const t = yield* session
        const r = yield* send(t, buyHubc)
        assertOk(r, 201)
        assert.strictEqual(payloadOf(r.body.event).settlement_date, "2026-05-25")
        assert.exists(r.body.holding)
        assert.deepStrictEqual(r.body.holding.quantity, 100)
        assert.strictEqual(r.body.holding.average_cost, 216.62, "(100 × 215.42 + 120 fees) / 100")
        assert.strictEqual(r.body.holding.market_price, 219.5)
        assert.strictEqual(r.body.holding.market_value, 21950)
        assert.isTrue(r.body.holding.quote_stale)
        assertFailed(
          yield* send(t, { ...buyHubc, kind: "sell", quantity: 101, trade_date: "2026-05-25" }),
          400,
          "INVALID_REQUEST"
        )
        assertFailed(yield* send(t, { ...buyHubc, quantity: 0 }), 400, "INVALID_REQUEST")
        assertFailed(yield* send(t, { ...buyHubc, price: -1 }), 400, "INVALID_REQUEST")
        assertFailed(yield* send(t, { ...buyHubc, trade_date: "2026-05-23" }), 400, "INVALID_REQUEST")
        assertFailed(yield* send(t, { ...buyHubc, trade_date: "2099-01-05" }), 400, "INVALID_REQUEST")
        assertFailed(yield* send(t, { ...buyHubc, symbol: "ZZZZ" }), 404, "DATA_NOT_FOUND")
        assertFailed(yield* send(t, { ...buyHubc, symbol: "HU$BC" }), 400, "INVALID_SYMBOL")
        assertFailed(yield* send(t, { ...buyHubc, kind: "gift" }), 400, "INVALID_REQUEST")
        assertFailed(yield* send(t, "{not json"), 400, "INVALID_REQUEST")
        assert.strictEqual(
          bodyOf(yield* get("/v1/me/ledger", bearer(t))).total,
          1,
          "nothing appended by the rejections"
        )
        const flagged = yield* send(t, { ...buyHubc, price: 300, trade_date: "2026-05-25" })
        assertOk(flagged, 201)
        assert.match(flagged.body.flags[0] ?? "", /outside 2026-05-25's circuit-breaker bounds 193\.88–236\.96/)
        const p = yield* get("/v1/me/portfolio", bearer(t))
        assertSucceeded(p)
        assert.strictEqual(p.body.transactions.total, 2)
        assert.strictEqual(p.body.cash_flows.invested, 100 * 215.42 + 120 + 100 * 300 + 120)
        const a = yield* get("/v1/me/analyze", bearer(t))
        assertSucceeded(a)
        assert.strictEqual(a.body.overlap.symbols_in_kse100, 1)
        assert.strictEqual(a.body.sectors[0]!.sector, "POWER GENERATION & DISTRIBUTION")
        assert.isNumber(a.body.sectors[0]!.kse100_pct)
        assert.strictEqual(a.body.unavailable[0]!.part, "benchmark returns")
        assert.exists(a.body.returns)
        assert.strictEqual(a.body.returns.to, "2026-05-25")
        assert.isNumber(a.body.returns.periods.find((x) => x.period === "since_inception")!.return_pct)
      }))

    it.effect("the same Idempotency-Key and body returns the original result; another body is 409", () =>
      Effect.gen(function*() {
        const t = yield* session
        const first = yield* send(t, buyHubc, { "idempotency-key": "order-1" })
        assertSucceeded(first)
        const again = yield* send(t, buyHubc, { "idempotency-key": "order-1" })
        assertOk(again, 201)
        assert.isTrue(again.body.replayed)
        assert.strictEqual(again.body.event.event_id, first.body.event.event_id)
        assertFailed(
          yield* send(t, { ...buyHubc, quantity: 5 }, { "idempotency-key": "order-1" }),
          409,
          "INVALID_REQUEST"
        )
        assert.strictEqual(bodyOf(yield* get("/v1/me/ledger", bearer(t))).total, 1)
      }))

    it.effect("donations are created pending; a bad amount is 400", () =>
      Effect.gen(function*() {
        const d = yield* post("/v1/donations", { amount: 1500, currency: "PKR", note: "for the data" })
        assertOk(d)
        assert.strictEqual(d.body.status, "pending")
        assertFailed(yield* post("/v1/donations", { amount: 0 }), 400, "INVALID_REQUEST")
        assertFailed(yield* post("/v1/donations", { amount: 10.001 }), 400, "INVALID_REQUEST")
        assertFailed(yield* post("/v1/donations", { amount: 5, currency: "USD" }), 400, "INVALID_REQUEST")
      }))
  })

  describe("the store refuses changes and rebuilds", () => {
    it.effect("the database refuses UPDATE, DELETE and TRUNCATE on events; verify finds an altered row", () =>
      Effect.gen(function*() {
        const t = yield* session
        yield* send(t, buyHubc)
        const second = yield* send(t, { ...buyHubc, quantity: 50, trade_date: "2026-05-25", price: 219.5 })
        assertSucceeded(second)
        yield* send(t, { kind: "sell", symbol: "HUBC", quantity: 20, price: 219.5, trade_date: "2026-05-25" })
        assert.isTrue(bodyOf(yield* get("/v1/me/ledger/verify", bearer(t))).ok)
        const sql = yield* SqlClient.SqlClient
        const id = second.body.event.event_id as string
        for (
          const stmt of [
            `UPDATE events SET payload = payload WHERE event_id = '${id}'`,
            `DELETE FROM events WHERE event_id = '${id}'`,
            "TRUNCATE events"
          ]
        ) {
          const r = yield* Effect.result(sql.unsafe(stmt))
          assert.strictEqual(r._tag, "Failure", `${stmt} must fail`)
        }
        // An attacker with the power to disable the trigger:
        yield* sql.unsafe("ALTER TABLE events DISABLE TRIGGER events_no_update_delete")
        yield* sql.unsafe(
          `UPDATE events SET payload_json = replace(payload_json, '"quantity":50,', '"quantity":5000,') WHERE event_id = '${id}'`
        )
        yield* sql.unsafe("ALTER TABLE events ENABLE TRIGGER events_no_update_delete")
        const v = yield* get("/v1/me/ledger/verify", bearer(t))
        assertSucceeded(v)
        assert.isFalse(v.body.ok)
        assert.exists(v.body.first_failure)
        assert.strictEqual(v.body.first_failure.event_id, id)
        assert.strictEqual(v.body.first_failure.version, 2)
        assert.match(v.body.first_failure.reason, /altered/)
        const audit = yield* Audit
        const all = yield* audit.verifyAll()
        assert.include(all.failures.map((f) => f.first_failure?.event_id), id)
      }))

    it.effect("a rebuild from the events equals the live projection", () =>
      Effect.gen(function*() {
        const t = yield* session
        yield* send(t, buyHubc)
        // Entitled on the last buy dates of their book closures: 05-22 (the buy) and 05-26 (after the bonus).
        yield* send(t, {
          kind: "bonus",
          symbol: "HUBC",
          percent: 15,
          book_closure_from: "2026-05-26",
          trade_date: "2026-05-26"
        })
        yield* send(t, {
          kind: "dividend",
          symbol: "HUBC",
          per_share: 4,
          filer: true,
          book_closure_from: "2026-06-02",
          trade_date: "2026-06-02"
        })
        yield* send(t, { kind: "buy", symbol: "MEBL", quantity: 10, price: 500, trade_date: "2026-05-25" })
        const keys = yield* Keys
        const principal = yield* keys.authenticate(t)
        const stream = streamOf(principal.userId)
        const store = yield* EventStore
        const sql = yield* SqlClient.SqlClient
        const live = yield* readHoldings(stream)
        const events = yield* store.readStream(stream)
        assert.isTrue(samePositions(positionsOf(events), live))
        const hubc = live.find((p) => p.symbol === "HUBC")!
        assert.deepStrictEqual([hubc.quantity, hubc.dividends_gross, hubc.dividends_net], [115, 460, 391])
        yield* sql`UPDATE holdings SET quantity = 1 WHERE stream_id = ${stream}`
        const audit = yield* Audit
        assert.isFalse((yield* audit.verifyStream(stream)).projection_matches)
        yield* audit.rebuildAll
        assert.isTrue(samePositions(yield* readHoldings(stream), live))
      }))
  })

  describe("the clock, key management and inputs", () => {
    it.effect("the service runs on this file's clock, not the machine's date", () =>
      Effect.gen(function*() {
        const t = yield* session
        const r = yield* send(t, { ...buyHubc, trade_date: "2026-11-23" })
        assertFailed(r, 400, "INVALID_REQUEST")
        assert.include(r.body.message, "today is 2026-11-21")
      }))

    it.effect("every portfolio route refuses a key without its grant with 403, before reading the request", () =>
      Effect.gen(function*() {
        const token = yield* session
        const keyWith = (grant: string) =>
          Effect.map(post("/v1/me/keys", { grants: [grant] }, bearer(token)), (r) => bodyOf(r).key)
        const lacking = {
          "portfolio:read": yield* keyWith("portfolio:write"),
          "portfolio:write": yield* keyWith("portfolio:read")
        }
        const client = yield* HttpClient.HttpClient
        let routes = 0
        for (const endpoint of Object.values(Api.groups["portfolio"]!.endpoints)) {
          const grant = Context.getOption(endpoint.annotations, RequiredGrant)
          if (Option.isNone(grant)) continue
          // Whatever the request carries (an id that names nothing, a query out of bounds, a body that is not JSON).
          const path = `${endpoint.path.replace(/:\w+/gu, "no-such-id")}?limit=1e302&tax_year=1`
          const request = HttpClientRequest.make(endpoint.method)(path).pipe(
            HttpClientRequest.setHeaders(bearer(lacking[grant.value as keyof typeof lacking])),
            endpoint.method === "GET" ? (r) => r : HttpClientRequest.bodyText("{not json", "application/json")
          )
          const response = yield* client.execute(request).pipe(Effect.orDie)
          const body = yield* response.json.pipe(Effect.orDie)
          assert.strictEqual(response.status, 403, `${endpoint.method} ${endpoint.path}: ${JSON.stringify(body)}`)
          assert.strictEqual((body as { error: string }).error, "FORBIDDEN")
          routes++
        }
        assert.isAtLeast(routes, 17)
        assert.strictEqual(bodyOf(yield* get("/v1/me/ledger", bearer(token))).total, 0, "nothing is recorded")
      }))

    it.effect("key management needs the session or keys:manage, and never reaches beyond the caller's own grants", () =>
      Effect.gen(function*() {
        const owner = yield* session
        const rw = bodyOf(yield* post("/v1/me/keys", { grants: ["portfolio:read", "portfolio:write"] }, bearer(owner)))
        const ro = bodyOf(yield* post("/v1/me/keys", { grants: ["portfolio:read"] }, bearer(owner)))
        assert.deepStrictEqual(ro.grants, ["portfolio:read"], "keys:manage is never given by default")
        const sessionId = bodyOf(yield* get("/v1/me/keys", bearer(owner))).items.find((k) => k.kind === "session")!.id
        // The finding: a read-only key revoked the owner's keys and session, and minted copies of itself.
        assertFailed(yield* del(`/v1/me/keys/${rw.id}`, bearer(ro.key)), 403, "FORBIDDEN")
        assertFailed(yield* del(`/v1/me/keys/${sessionId}`, bearer(ro.key)), 403, "FORBIDDEN")
        assertFailed(yield* post("/v1/me/keys", { grants: ["portfolio:read"] }, bearer(ro.key)), 403, "FORBIDDEN")
        assertFailed(yield* get("/v1/me/keys", bearer(ro.key)), 403, "FORBIDDEN")
        assert.strictEqual((yield* get("/v1/me/holdings", bearer(owner))).status, 200, "the owner is not locked out")
        assert.strictEqual((yield* get("/v1/me/holdings", bearer(rw.key))).status, 200)
        // A key without keys:manage cannot mint one holding it.
        assertFailed(yield* post("/v1/me/keys", { grants: ["keys:manage"] }, bearer(rw.key)), 403, "FORBIDDEN")
        // A manager key manages only what it holds itself.
        const mgr = bodyOf(yield* post("/v1/me/keys", { grants: ["keys:manage", "portfolio:read"] }, bearer(owner)))
        assert.strictEqual((yield* post("/v1/me/keys", { grants: ["portfolio:read"] }, bearer(mgr.key))).status, 201)
        assertFailed(yield* post("/v1/me/keys", { grants: ["portfolio:write"] }, bearer(mgr.key)), 403, "FORBIDDEN")
        assertFailed(yield* del(`/v1/me/keys/${rw.id}`, bearer(mgr.key)), 403, "FORBIDDEN")
        assertFailed(yield* del(`/v1/me/keys/${sessionId}`, bearer(mgr.key)), 403, "FORBIDDEN")
        assert.strictEqual((yield* get("/v1/me/keys", bearer(mgr.key))).status, 200)
        assert.strictEqual((yield* del(`/v1/me/keys/${ro.id}`, bearer(mgr.key))).status, 200)
        assertFailed(yield* get("/v1/me/holdings", bearer(ro.key)), 401, "UNAUTHORIZED")
        // The owner's session manages everything, itself included.
        assert.strictEqual((yield* del(`/v1/me/keys/${mgr.id}`, bearer(owner))).status, 200)
        const doc = JSON.stringify((yield* get("/openapi.json")).body)
        assert.include(doc, "never given by default")
        assert.include(doc, "never mint a credential with a grant it lacks")
      }))

    it.effect("ids, bodies and query values the store cannot hold are 400 or 404 records, never a 500", () =>
      Effect.gen(function*() {
        const t = yield* session
        assertFailed(yield* del("/v1/me/keys/%E2%80%AE%00x", bearer(t)), 400, "INVALID_REQUEST")
        assertFailed(yield* del("/v1/me/keys/%E2%80%AEx", bearer(t)), 404, "DATA_NOT_FOUND")
        for (
          const path of [
            `/v1/me/keys/${"k".repeat(300)}`,
            "/v1/me/keys/%ED%A0%80",
            "/v1/me/keys/%FF",
            "/v1/me/keys/%0Ax"
          ]
        ) {
          const r = yield* del(path, bearer(t))
          assert.oneOf(r.status, [400, 404], `${path}: ${JSON.stringify(r.body)}`)
          assertFailed(r, r.status)
        }
        assertFailed(yield* send(t, { kind: "reversal", event_id: "a\u0000b", reason: "typo" }), 400, "INVALID_REQUEST")
        assertFailed(yield* send(t, { kind: "reversal", event_id: "\u202e", reason: "typo" }), 400, "INVALID_REQUEST")
        assertFailed(yield* send(t, { kind: "reversal", event_id: "\ud800", reason: "typo" }), 400, "INVALID_REQUEST")
        assertFailed(yield* send(t, { ...buyHubc, symbol: "HU\u0000BC" }), 400, "INVALID_SYMBOL")
        assertFailed(yield* post("/v1/donations", { amount: 5, note: "thanks\u0000" }), 400, "INVALID_REQUEST")
        assertFailed(yield* post("/v1/me/keys", { grants: [], label: "a\u0000" }, bearer(t)), 400, "INVALID_REQUEST")
        assertFailed(yield* get("/v1/me/ledger?cursor=%00", bearer(t)), 400, "INVALID_REQUEST")
        assert.strictEqual((yield* send(t, buyHubc, { "idempotency-key": "\u00e9t\u00e9-1" })).status, 201)
      }))
  })

  describe("signed checkpoints", () => {
    /** A new user's three trades, each followed by a checkpoint; the published keys and the current one. */
    const threeCheckpoints = Effect.gen(function*() {
      const t = yield* session
      assertFailed(yield* get("/v1/me/ledger/checkpoint", bearer(t)), 404, "DATA_NOT_FOUND")
      const checkpoints: Array<SignedCheckpoint> = []
      for (
        const trade of [buyHubc, { ...buyHubc, quantity: 50, trade_date: "2026-05-25", price: 219.5 }, {
          kind: "sell",
          symbol: "HUBC",
          quantity: 20,
          price: 219.5,
          trade_date: "2026-05-25"
        }]
      ) {
        assert.strictEqual((yield* send(t, trade)).status, 201)
        const c = yield* get("/v1/me/ledger/checkpoint", bearer(t))
        assertOk(c)
        checkpoints.push(c.body)
      }
      // Public: no credential needed.
      const published = bodyOf(yield* get("/v1/ledger/signing-key")).keys
      const current = published.find((k) => k.current)
      assert.exists(current)
      // The last checkpoint with its version lowered in the signed bytes: a forgery.
      const forged = {
        ...checkpoints[2]!,
        version: 2,
        signed: checkpoints[2]!.signed.replace(`"version":3`, `"version":2`)
      }
      return { t, checkpoints, published, current, forged }
    })

    it.effect("a checkpoint per version, verified with the published public key alone; a forged version is rejected", () =>
      Effect.gen(function*() {
        const { t, checkpoints, current, forged } = yield* threeCheckpoints
        assert.strictEqual(current.algorithm, "Ed25519")
        const publicKey = createPublicKey(current.public_key_pem)
        const ledger = bodyOf(yield* get("/v1/me/ledger", bearer(t)))
        checkpoints.forEach((c, i) => {
          assert.strictEqual(c.version, i + 1)
          assert.strictEqual(c.key_id, current.key_id)
          assert.include(c.signed, `"head_hash":"${c.head_hash}"`, "the head hash is verbatim in the signed bytes")
          assert.isTrue(verify(null, Buffer.from(c.signed, "utf8"), publicKey, Buffer.from(c.signature, "base64")))
        })
        assert.strictEqual(checkpoints[2]!.head_hash, ledger.items[0]!.hash)
        assert.isFalse(
          verify(null, Buffer.from(forged.signed, "utf8"), publicKey, Buffer.from(forged.signature, "base64"))
        )
      }))

    it.effect("an export verifies offline; a forged checkpoint in it is rejected; a rewrite-and-rehash is caught at its version", () =>
      Effect.gen(function*() {
        const { t, published, current, forged } = yield* threeCheckpoints
        const stream = streamOf((yield* userOf(t)).userId)
        const audit = yield* Audit
        const signer = yield* LedgerSigner
        const exportOf = Effect.gen(function*() {
          const events = yield* audit.exportStream(stream)
          const signed = (yield* signer.allCheckpoints).filter((c) => c.stream_id === stream)
          return [...events, ...signed.map((c) => canonicalJson({ checkpoint: c }))]
        })
        const dir = mkdtempSync(join(tmpdir(), "psx-ledger-export-"))
        const keyFile = join(dir, "signing-key.pem")
        writeFileSync(keyFile, published.map((k) => k.public_key_pem).join("\n"))
        const cli = (lines: ReadonlyArray<string>, name: string) => {
          const file = join(dir, name)
          writeFileSync(file, lines.join("\n") + "\n")
          // Offline: no DATABASE_URL, a data directory that does not exist, no private key.
          const env = { ...process.env, DATABASE_URL: "", PSX_DATA_DIR: join(dir, "no-store"), LEDGER_SIGNING_KEY: "" }
          return spawnSync(process.execPath, [
            fileURLToPath(new URL("../src/main.ts", import.meta.url)),
            "ledger",
            "verify",
            "--public-key",
            keyFile,
            file
          ], { encoding: "utf8", env })
        }
        const offline = (lines: ReadonlyArray<string>) => {
          const events: Array<ExportedEvent> = []
          const cps: Array<SignedCheckpoint> = []
          for (const line of lines) {
            const decoded = decodeExportLine(line)
            assert.isTrue(Exit.isSuccess(decoded), line)
            if (Exit.isSuccess(decoded)) {
              if ("checkpoint" in decoded.value) cps.push(decoded.value.checkpoint)
              else events.push(decoded.value)
            }
          }
          return verifyExport(events, cps, sha256, verifyWith(publicKeysFromPem(current.public_key_pem)))
        }
        const clean = yield* exportOf
        const ok = cli(clean, "clean.ndjson")
        assert.strictEqual(ok.status, 0, ok.stdout + ok.stderr)
        assert.include(ok.stdout, "3 events, 3 signed checkpoints")
        // A forged checkpoint in an export is rejected.
        const withForgery = offline([...clean, canonicalJson({ checkpoint: forged })])
        assert.include(withForgery.failures.map((f) => f.reason).join(" "), "forged")

        // The attacker rewrites version 2 and recomputes every later hash, with the trigger disabled.
        const sql = yield* SqlClient.SqlClient
        const rows = yield* Effect.flatMap(
          sql.unsafe(`SELECT ${COLUMNS} FROM events WHERE stream_id = $1 ORDER BY version`, [stream]),
          eventRows
        )
        yield* sql.unsafe("ALTER TABLE events DISABLE TRIGGER events_no_update_delete")
        let prev = rows[0]!.hash
        for (const e of rows.slice(1)) {
          const payload_json = e.version === 2
            ? e.payload_json!.replace("\"quantity\":50,", "\"quantity\":5000,")
            : e.payload_json!
          const hash = sha256(chainInputV2(prev, { ...e, payload_json, metadata_json: e.metadata_json! }))
          yield* sql.unsafe("UPDATE events SET payload_json = $1, prev_hash = $2, hash = $3 WHERE event_id = $4", [
            payload_json,
            prev,
            hash,
            e.event_id
          ])
          prev = hash
        }
        yield* sql.unsafe("ALTER TABLE events ENABLE TRIGGER events_no_update_delete")
        const rehashed = yield* audit.verifyStream(stream)
        assert.strictEqual(
          rehashed.first_failure?.version,
          2,
          "the chain alone no longer shows the rewrite; the signed checkpoint does"
        )
        assert.match(rehashed.first_failure!.reason, /checkpoint.*rewritten/)
        const tampered = yield* exportOf
        const report = offline(tampered)
        assert.strictEqual(report.failures[0]?.version, 2, JSON.stringify(report.failures))
        assert.match(report.failures[0]!.reason, /rewritten/)
        const bad = cli(tampered, "tampered.ndjson")
        assert.notStrictEqual(bad.status, 0)
        assert.include(bad.stdout, `FAIL ${stream} version 2`)
      }))

    it.effect("key rotation: checkpoints signed with an earlier key stay verifiable with the published keys", () =>
      Effect.scoped(Effect.gen(function*() {
        const t = yield* session
        assert.strictEqual((yield* send(t, buyHubc)).status, 201)
        const stream = streamOf((yield* userOf(t)).userId)
        // Before the rotation: the service signed with another key.
        const config = yield* AppConfig
        const earlierSigner = Context.get(
          yield* Layer.build(
            Layer.fresh(LedgerSigner.layer).pipe(
              Layer.provide(
                Layer.succeed(AppConfig, { ...config, ledgerSigningKey: Option.some(Redacted.make(earlierKeyPem)) })
              )
            )
          ),
          LedgerSigner
        )
        const early = yield* earlierSigner.checkpoint(stream)
        const late = bodyOf(yield* get("/v1/me/ledger/checkpoint", bearer(t)))
        assert.notStrictEqual(early.key_id, late.key_id)
        const keys = bodyOf(yield* get("/v1/ledger/signing-key")).keys
        assert.includeMembers(keys.map((k) => k.key_id), [early.key_id, late.key_id])
        assert.deepStrictEqual(keys.filter((k) => k.current).map((k) => k.key_id), [late.key_id])
        const check = verifyWith(publicKeysFromPem(keys.map((k) => k.public_key_pem).join("\n")))
        assert.isTrue(check(early.key_id, early.signed, early.signature))
        assert.isTrue(check(late.key_id, late.signed, late.signature))
        assert.strictEqual(check("0000000000000000", late.signed, late.signature), "unknown key")
      })))
  })

  describe("the state appends decide from, and the whole ledger", () => {
    it.effect("the state appends decide from equals the replay after backdated trades and reversals; verify catches a drifted one", () =>
      Effect.gen(function*() {
        const t = yield* session
        assert.strictEqual((yield* send(t, buyHubc)).status, 201)
        const second = yield* send(t, { ...buyHubc, quantity: 40, trade_date: "2026-05-25", price: 219.5 })
        assertSucceeded(second)
        // Backdated before the second buy: decided from the history.
        assert.strictEqual(
          (yield* send(t, { kind: "sell", symbol: "HUBC", quantity: 60, price: 216, trade_date: "2026-05-22" })).status,
          201
        )
        assertFailed(
          yield* send(t, { kind: "sell", symbol: "HUBC", quantity: 50, price: 216, trade_date: "2026-05-22" }),
          400,
          "INVALID_REQUEST"
        )
        assert.strictEqual(
          (yield* send(t, { kind: "reversal", event_id: second.body.event.event_id, reason: "entered twice" })).status,
          201
        )
        // In order again: decided from the kept state, which must know the reversal.
        assertFailed(
          yield* send(t, { kind: "sell", symbol: "HUBC", quantity: 41, price: 219.5, trade_date: "2026-05-25" }),
          400,
          "INVALID_REQUEST"
        )
        const last = yield* send(t, {
          kind: "sell",
          symbol: "HUBC",
          quantity: 40,
          price: 219.5,
          trade_date: "2026-05-25"
        })
        assertOk(last, 201)
        assert.exists(last.body.holding)
        assert.strictEqual(last.body.holding.quantity, 0)
        const v = bodyOf(yield* get("/v1/me/ledger/verify", bearer(t)))
        assert.isTrue(v.ok && v.projection_matches, JSON.stringify(v))
        const stream = streamOf((yield* userOf(t)).userId)
        const store = yield* EventStore
        const head = yield* store.head(stream)
        assert.deepStrictEqual([head.version, head.last_effective], [5, "2026-05-25"])
        const sql = yield* SqlClient.SqlClient
        // The kept latest effective date lives on each event row: a drifted one fails verify at that event.
        const drift = (date: string) =>
          Effect.gen(function*() {
            yield* sql.unsafe("ALTER TABLE events DISABLE TRIGGER events_no_update_delete")
            yield* sql`UPDATE events SET last_effective = ${date}::date WHERE stream_id = ${stream} AND version = 5`
            yield* sql.unsafe("ALTER TABLE events ENABLE TRIGGER events_no_update_delete")
          })
        yield* drift("2026-01-02")
        const drifted = bodyOf(yield* get("/v1/me/ledger/verify", bearer(t)))
        assert.isFalse(drifted.ok)
        assert.exists(drifted.first_failure)
        assert.strictEqual(drifted.first_failure.version, 5)
        assert.match(
          drifted.first_failure.reason,
          /last_effective 2026-01-02 where the stream's latest effective date is 2026-05-25/
        )
        yield* drift("2026-05-25")
        yield* sql`UPDATE holdings SET quantity = 7 WHERE stream_id = ${stream}`
        assert.isFalse(bodyOf(yield* get("/v1/me/ledger/verify", bearer(t))).projection_matches)
        yield* (yield* Audit).rebuildAll
        assert.isTrue(bodyOf(yield* get("/v1/me/ledger/verify", bearer(t))).ok)
      }))

    it.effect("the whole-ledger catch-up reader gives every event exactly once, in commit-safe order", () =>
      Effect.gen(function*() {
        const keys = yield* Keys
        const portfolio = yield* Portfolio
        const principals = yield* Effect.forEach(
          Array.from({ length: 5 }),
          () => Effect.flatMap(keys.createSession, (s) => keys.authenticate(s.token))
        )
        yield* Effect.forEach(
          principals,
          (p) =>
            Effect.forEach(Array.from({ length: 12 }), () =>
              portfolio.record(
                p,
                { kind: "buy", symbol: "MEBL", quantity: 2, price: 500, trade_date: "2026-05-25" },
                {}
              ), { discard: true }),
          { concurrency: 5, discard: true }
        )
        const sql = yield* SqlClient.SqlClient
        const expected = (yield* sql<{ event_id: string }>`SELECT event_id FROM events ORDER BY txn, position`).map((
          r
        ) => r.event_id)
        const store = yield* EventStore
        const seen: Array<string> = []
        let checkpoint: { tx: string; position: number } | undefined
        // On a shared server the horizon waits for other databases' transactions: keep reading until caught up.
        const readPage = Effect.suspend(() => store.readAll(checkpoint, 7)).pipe(Effect.map((page) => {
          for (const e of page.events) seen.push(e.event_id)
          checkpoint = page.next
          return seen.length
        }))
        yield* pollUntil("the reader has caught up", readPage, (n) => n >= expected.length)
        assert.strictEqual(new Set(seen).size, seen.length, "no event twice")
        assert.deepStrictEqual(seen, expected, "every event, in (transaction, position) order")
      }))
  })

  describe("on PostgreSQL: concurrent writers and late commits", () => {
    it.effect.skipIf(!isRealPostgres)(
      "a catch-up reader never skips an event committed late with a lower position",
      () =>
        Effect.gen(function*() {
          const store = yield* EventStore
          const sql = yield* SqlClient.SqlClient
          const start = yield* store.readAll(undefined, 1_000_000)
          const insert = (stream: string) =>
            sql`INSERT INTO events (stream_id, version, event_id, type, payload_json, metadata_json, recorded_at, effective_date,
                                  last_effective, prev_hash, hash)
              VALUES (${stream}, 1, ${stream}, 'DonationRecorded',
                      ${
              JSON.stringify({
                type: "DonationRecorded",
                donation_id: stream,
                amount: 1,
                currency: "PKR",
                status: "pending"
              })
            },
                      '{}', now(), current_date, current_date, 'x', 'y')`
          const inserted = yield* Deferred.make<void>()
          const release = yield* Deferred.make<void>()
          // The slow transaction takes its position first and commits last.
          const slow = yield* sql.withTransaction(Effect.gen(function*() {
            yield* insert("catchup-slow")
            yield* Deferred.succeed(inserted, undefined)
            yield* Deferred.await(release)
          })).pipe(Effect.forkChild)
          yield* Deferred.await(inserted)
          yield* sql.withTransaction(insert("catchup-fast"))
          // Only this test's streams: earlier tests' events may still be arriving behind the horizon.
          const mine = (r: { events: ReadonlyArray<{ stream_id: string }> }) =>
            r.events.map((e) => e.stream_id).filter((s) => s.startsWith("catchup-"))
          const during = yield* store.readAll(start.next, 100_000)
          assert.deepStrictEqual(mine(during), [], "the fast event waits behind the open slow transaction")
          yield* Deferred.succeed(release, undefined)
          yield* Fiber.join(slow)
          // The horizon is the oldest transaction in flight on the whole server (other test files share it):
          // wait for it to pass both events.
          let seen: Array<string> = []
          let checkpoint = during.next
          const readOn = Effect.suspend(() => store.readAll(checkpoint, 100_000)).pipe(Effect.map((after) => {
            checkpoint = after.next
            seen = [...seen, ...mine(after)]
            return seen.length
          }))
          yield* pollUntil("the horizon passes both events", readOn, (n) => n >= 2, { every: "50 millis" })
          assert.deepStrictEqual(
            seen,
            ["catchup-slow", "catchup-fast"],
            "both arrive, in commit-safe order, none skipped"
          )
          const positions = yield* sql<{ stream_id: string; position: string }>`
          select stream_id, position::text from events where stream_id like 'catchup-%' order by stream_id desc`
          assert.isBelow(
            Number(positions[0]!.position),
            Number(positions[1]!.position),
            "the slow event holds the lower position"
          )
        })
    )

    it.effect.skipIf(!isRealPostgres)(
      "two appends at the same expected version: one wins, the other is a typed conflict",
      () =>
        Effect.gen(function*() {
          const store = yield* EventStore
          const donation = (n: number) => ({
            type: "DonationRecorded" as const,
            donation_id: `race-${n}`,
            amount: n,
            currency: "PKR" as const,
            status: "pending" as const
          })
          const results = yield* Effect.all(
            [1, 2].map((n) => Effect.result(store.append("race-stream", EMPTY_HEAD, [donation(n)], {}))),
            { concurrency: 2 }
          )
          const failures = results.filter((r) => r._tag === "Failure")
          assert.strictEqual(failures.length, 1)
          assert.strictEqual(
            failures[0]!._tag === "Failure" && (failures[0] as any).failure._tag,
            "ConcurrencyConflict"
          )
          assert.strictEqual((yield* store.readStream("race-stream")).length, 1)
        })
    )

    it.effect.skipIf(!isRealPostgres)(
      "8 writers × 250 appends to one portfolio: exactly 2,000 events, contiguous, verified",
      () =>
        Effect.gen(function*() {
          const keys = yield* Keys
          const portfolio = yield* Portfolio
          const audit = yield* Audit
          const { token } = yield* keys.createSession
          const principal = yield* keys.authenticate(token)
          yield* Effect.forEach(Array.from({ length: 8 }, (_, w) => w), (w) =>
            Effect.forEach(
              Array.from({ length: 250 }, (_, i) => i),
              (i) =>
                portfolio.record(principal, {
                  kind: "buy",
                  symbol: "HUBC",
                  quantity: 1 + ((w + i) % 3),
                  price: 215.42,
                  trade_date: "2026-05-22"
                }, {}),
              { discard: true }
            ), { concurrency: 8, discard: true })
          const store = yield* EventStore
          const events = yield* store.readStream(streamOf(principal.userId))
          assert.strictEqual(events.length, 2000)
          assert.deepStrictEqual(events.map((e) => e.version), Array.from({ length: 2000 }, (_, i) => i + 1))
          const v = yield* audit.verifyStream(streamOf(principal.userId))
          assert.isTrue(v.ok)
          assert.isTrue(v.projection_matches)
        })
    )

    it.effect.skipIf(!isRealPostgres)(
      "8 writers × 250 to different portfolios, and repeated Idempotency-Keys never duplicate",
      () =>
        Effect.gen(function*() {
          const keys = yield* Keys
          const portfolio = yield* Portfolio
          const store = yield* EventStore
          const principals = yield* Effect.forEach(Array.from({ length: 8 }), () =>
            Effect.flatMap(keys.createSession, (s) => keys.authenticate(s.token)))
          yield* Effect.forEach(principals, (p) =>
            Effect.forEach(
              Array.from({ length: 250 }, (_, i) =>
                i),
              () =>
                portfolio.record(
                  p,
                  { kind: "buy", symbol: "MEBL", quantity: 2, price: 500, trade_date: "2026-05-25" },
                  {}
                ),
              { discard: true }
            ), { concurrency: 8, discard: true })
          for (const p of principals) {
            assert.strictEqual((yield* store.readStream(streamOf(p.userId))).length, 250)
          }
          // Eight writers send the same 250 keyed requests to one portfolio.
          const shared = principals[0]!
          const before = (yield* store.readStream(streamOf(shared.userId))).length
          yield* Effect.forEach(Array.from({ length: 8 }), () =>
            Effect.forEach(
              Array.from({ length: 250 }, (_, i) => i),
              (i) =>
                portfolio.record(shared, {
                  kind: "buy",
                  symbol: "MEBL",
                  quantity: 1,
                  price: 500,
                  trade_date: "2026-05-25"
                }, { idempotencyKey: `k-${i}` }),
              { discard: true }
            ), { concurrency: 8, discard: true })
          assert.strictEqual((yield* store.readStream(streamOf(shared.userId))).length, before + 250)
        })
    )
  })
})
