/**
 * Security review, as tests: credentials are stored only as hashes; one user
 * cannot reach another's keys or events by guessing ids; credentials never
 * reach the logs (a real service process at LOG_LEVEL=All); request bodies
 * are bounded; the cross-origin (CORS) policy is what the README says: no
 * CORS headers at all, so browsers on other origins cannot read answers.
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { createHash } from "node:crypto"
import { sendRaw } from "./support/RawHttp.ts"
import { call, startService, throwawayStore } from "./support/ServiceProcess.ts"
import { assertFailed, assertOk, bodyOf, get, post, TestApp } from "./support/TestApp.ts"

const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
const buyHubc = { kind: "buy", symbol: "HUBC", quantity: 10, price: 215.42, trade_date: "2026-05-22" }

/** Tables of market data (public figures, large): everything else is scanned for secrets. */
const MARKET_TABLES = new Set([
  "announcements",
  "company_profiles",
  "company_ratios",
  "corporate_actions",
  "daily_prices",
  "datasets",
  "financial_lines",
  "fundamentals",
  "index_levels",
  "index_membership",
  "market_version",
  "news_items",
  "payout_coverage",
  "payouts",
  "price_disagreements",
  "price_series",
  "price_series_dirty",
  "quotes",
  "sectors",
  "securities"
])

layer(TestApp({ withPack: true, now: "2026-06-15T06:00:00.000Z" }), { timeout: 600_000, excludeTestServices: true })(
  "security",
  (it) => {
    it.effect("session tokens and API keys are stored only as SHA-256 hashes: no raw secret in any non-market table", () =>
      Effect.gen(function*() {
        const token = bodyOf(yield* post("/v1/me/session", {})).token as string
        const key = bodyOf(
          yield* post("/v1/me/keys", { grants: ["portfolio:read", "portfolio:write"], label: "k" }, bearer(token))
        )
        assert.strictEqual(
          (yield* post("/v1/me/transactions", buyHubc, { ...bearer(key.key), "idempotency-key": "sec-1" })).status,
          201
        )
        const sql = yield* SqlClient.SqlClient
        const tables = (yield* sql<{ name: string }>`
        SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`)
          .map((r) => r.name)
          .filter((t) => !MARKET_TABLES.has(t))
        assert.includeMembers(tables, ["users", "api_keys", "events", "idempotency"])
        for (const secret of [token, key.key as string]) {
          const hidden = secret.slice(10) // the stored display prefix is the first 10 characters
          for (const table of tables) {
            const rows = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM ${
              sql(table)
            } t WHERE t::text LIKE ${`%${hidden}%`}`
            assert.strictEqual(rows[0]!.n, 0, `${table} holds no part of a secret beyond its prefix`)
          }
          const hash = createHash("sha256").update(secret).digest("hex")
          const stored = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM api_keys WHERE secret_hash = ${hash}`
          assert.strictEqual(
            stored[0]!.n,
            1,
            "the credential is found by its SHA-256 (hash-then-compare, no string compare of secrets)"
          )
        }
      }))

    it.effect("user B cannot read, revoke or reverse user A's keys or events by their ids", () =>
      Effect.gen(function*() {
        const a = bodyOf(yield* post("/v1/me/session", {})).token as string
        const b = bodyOf(yield* post("/v1/me/session", {})).token as string
        const aKey = bodyOf(yield* post("/v1/me/keys", { grants: ["portfolio:read"] }, bearer(a)))
        const aEvent = bodyOf(yield* post("/v1/me/transactions", buyHubc, bearer(a))).event
        const aSessionId = bodyOf(yield* get("/v1/me/keys", bearer(a))).items.find((k) => k.kind === "session")?.id ??
          aKey.id

        for (const id of [aKey.id, aSessionId]) {
          const r = yield* sendRaw({ method: "DELETE", url: `/v1/me/keys/${id}`, headers: bearer(b) })
          assert.strictEqual(r._tag === "Answered" ? r.status : 0, 404, "another user's key id is not found")
        }
        assert.strictEqual((yield* get("/v1/me/holdings", bearer(aKey.key))).status, 200, "A's key still works")
        assert.strictEqual((yield* get("/v1/me/holdings", bearer(a))).status, 200, "A's session still works")
        const bKeys = bodyOf(yield* get("/v1/me/keys", bearer(b))).items
        assert.isFalse(bKeys.some((k) => k.id === aKey.id), "B's list does not show A's keys")
        const bLedger = (yield* get("/v1/me/ledger", bearer(b))).body
        assert.isFalse(JSON.stringify(bLedger).includes(aEvent.event_id), "B's ledger does not show A's events")
        const reversal = yield* post("/v1/me/transactions", {
          kind: "reversal",
          event_id: aEvent.event_id,
          reason: "x"
        }, bearer(b))
        assert.include([400, 404], reversal.status, JSON.stringify(reversal.body))
        assertFailed(reversal, reversal.status)
        const aLedger = bodyOf(yield* get("/v1/me/ledger", bearer(a)))
        assert.strictEqual(aLedger.items.length, 1, "A's ledger is unchanged")
      }))

    it.effect("request size: a body over 1 MiB is a 400 INVALID_REQUEST record; just under is parsed", () =>
      Effect.gen(function*() {
        const token = bodyOf(yield* post("/v1/me/session", {})).token as string
        const over = JSON.stringify({ grants: ["portfolio:read"], label: "x".repeat(1024 * 1024) })
        const r = yield* sendRaw({ method: "POST", url: "/v1/me/keys", headers: bearer(token), body: over })
        assert.strictEqual(r._tag, "Answered")
        if (r._tag !== "Answered") return
        assertFailed(r, 400)
        assert.strictEqual(JSON.parse(r.text).error, "INVALID_REQUEST")
        const under = JSON.stringify({ grants: ["portfolio:read"], label: "x".repeat(1000 * 1000) })
        const u = yield* sendRaw({ method: "POST", url: "/v1/me/keys", headers: bearer(token), body: under })
        assert.strictEqual(
          u._tag === "Answered" ? JSON.parse(u.text).error : "",
          "INVALID_REQUEST",
          "refused by the schema (label ≤ 100), not the size limit"
        )
        assert.include(u._tag === "Answered" ? u.text : "", "label")
      }))

    it.effect("CORS: no Access-Control-* headers on a cross-origin GET or a preflight, so other origins cannot read answers", () =>
      Effect.gen(function*() {
        const origin = { origin: "https://evil.example" }
        const r = yield* get("/v1/companies/HUBC", origin)
        assertOk(r)
        const pre = yield* sendRaw({
          method: "OPTIONS",
          url: "/v1/me/holdings",
          headers: {
            ...origin,
            "access-control-request-method": "GET",
            "access-control-request-headers": "authorization"
          }
        })
        assert.strictEqual(pre._tag, "Answered")
        for (const headers of [r.headers]) {
          assert.isFalse(Object.keys(headers).some((h) => h.startsWith("access-control-")), JSON.stringify(headers))
        }
        if (pre._tag === "Answered") {
          assert.isAtLeast(pre.status, 400, "a preflight is not approved")
          assert.isBelow(pre.status, 500)
        }
      }))
  }
)

describe("secrets in logs", () => {
  it.live(
    "a service process at LOG_LEVEL=All never writes a session token, an API key or a bad credential to its output",
    () =>
      Effect.gen(function*() {
        const store = yield* throwawayStore
        const service = yield* startService(store, { env: { LOG_LEVEL: "All", PSX_AUTO_IMPORT: "false" } })
        const u = service.url
        const token = (yield* call(`${u}/v1/me/session`, { method: "POST" })).body.token as string
        const key = (yield* call(`${u}/v1/me/keys`, {
          method: "POST",
          headers: { ...bearer(token), "content-type": "application/json" },
          body: JSON.stringify({ grants: ["portfolio:read"] })
        })).body
        const wrong = `psx_k_${"Z".repeat(43)}`
        for (const credential of [token, key.key, wrong]) {
          yield* call(`${u}/v1/me/holdings`, { headers: bearer(credential) })
          yield* call(`${u}/v1/me/ledger?limit=notanumber`, { headers: bearer(credential) })
          yield* call(`${u}/v1/me/keys/${encodeURIComponent(`${key.id}\u0000`)}`, {
            method: "DELETE",
            headers: bearer(credential)
          })
          yield* call(`${u}/v1/me/transactions`, {
            method: "POST",
            headers: { ...bearer(credential), "content-type": "application/json", "idempotency-key": credential },
            body: "{"
          })
        }
        yield* service.kill("SIGTERM")
        const output = service.output()
        assert.isAbove(output.length, 1_000, "the process logged at level All")
        for (const secret of [token, key.key as string, wrong]) {
          assert.notInclude(output, secret.slice(6), "no credential in the logs")
        }
      }),
    300_000
  )
})
