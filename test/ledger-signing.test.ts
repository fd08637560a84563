/**
 * One signing key per deployment, and an export the website writes that
 * checks offline. Without a configured key the store keeps the deployment
 * key: a restart, a second instance and the CLI sign and verify with it (the
 * process tests start the real service on a throwaway store, both stores);
 * concurrent first uses agree on one key; a sealed key opens only with its
 * passphrase. The website's own export code (src/web/assets/ledger-export.js,
 * run under Node) writes what `ledger export` writes, and
 * docs/verify-ledger.mjs accepts it.
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import { HttpClient } from "effect/http"
import { SqlClient } from "effect/sql"
import { spawnSync } from "node:child_process"
import { createPublicKey, generateKeyPairSync } from "node:crypto"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { Keys } from "../src/ledger/accounts/Keys.ts"
import { Audit } from "../src/ledger/events/Audit.ts"
import { streamOf } from "../src/ledger/portfolio/Portfolio.ts"
import { keyIdOf, openDeploymentKey, pemOf } from "../src/ledger/signing/KeySource.ts"
import { LedgerSigner } from "../src/ledger/signing/Signing.ts"
// @ts-expect-error: a browser script, type-checked by the website's own tsconfig (src/web/assets), without declarations here
import { ledgerExport as browserExport } from "../src/web/assets/ledger-export.js"
import { call, startService, throwawayStore } from "./support/ServiceProcess.ts"
import { assertOk, bodyOf, get, post, TestApp } from "./support/TestApp.ts"
import { isRealPostgres } from "./support/TestDatabase.ts"

/** The website's export function, typed as its JSDoc declares it. */
const ledgerExport: (get: (path: string) => Promise<{ status: number; ok: boolean; body: unknown }>) => Promise<
  { readonly ok: true; readonly text: string; readonly events: number } | {
    readonly ok: false
    readonly reply: unknown
  }
> = browserExport
const ROOT = fileURLToPath(new URL("../", import.meta.url))
const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
const taxStatus = (filer: boolean, day: number) => ({
  kind: "tax_status",
  filer,
  trade_date: `2025-03-${String(day).padStart(2, "0")}`
})
/** No configured key, and a data directory of the test's own (so no key file of an earlier run is found). */
const noConfiguredKey = () => ({
  dataDir: mkdtempSync(join(tmpdir(), "psx-signing-")),
  ledgerSigningKey: Option.none(),
  ledgerSigningKeyFile: Option.none()
})

/** A signer and an audit built afresh over the app's store: what a restarted process or a second instance has. */
const anotherInstance = Effect.map(
  Layer.build(Layer.fresh(Audit.layer).pipe(Layer.provideMerge(Layer.fresh(LedgerSigner.layer)))),
  (ctx) => ({ signer: Context.get(ctx, LedgerSigner), audit: Context.get(ctx, Audit) })
)

layer(TestApp({ now: "2026-11-21T05:00:00.000Z", ...noConfiguredKey() }), {
  timeout: 300_000,
  excludeTestServices: true
})("one signing key per deployment", (it) => {
  it.effect("a restart and a second instance sign with the deployment key and verify each other's checkpoints", () =>
    Effect.scoped(Effect.gen(function*() {
      const token = bodyOf(yield* post("/v1/me/session", {})).token
      const stream = streamOf((yield* (yield* Keys).authenticate(token)).userId)
      assertOk(yield* post("/v1/me/transactions", taxStatus(true, 3), bearer(token)), 201)
      const first = bodyOf(yield* get("/v1/me/ledger/checkpoint", bearer(token)))
      const other = yield* anotherInstance
      assert.isTrue(
        (yield* other.audit.verifyStream(stream)).ok,
        "the other instance verifies the first one's checkpoint"
      )
      assertOk(yield* post("/v1/me/transactions", taxStatus(false, 4), bearer(token)), 201)
      const second = yield* other.signer.checkpoint(stream)
      assert.deepStrictEqual([second.version, second.key_id], [2, first.key_id], "one key: the same id in both")
      const v = bodyOf(yield* get("/v1/me/ledger/verify", bearer(token)))
      assert.isTrue(v.ok, JSON.stringify(v))
      assert.notProperty(v, "checkpoint_problem")
      const keys = bodyOf(yield* get("/v1/ledger/signing-key"))
      assert.deepStrictEqual(keys.keys.map((k) => [k.key_id, k.current]), [[first.key_id, true]])
      assert.deepStrictEqual(keys.untrusted_keys, [])
      assert.isString(keys.keys[0]!.first_used_at)
      assert.strictEqual(
        keys.keys[0]!.last_used_at,
        second.signed_at,
        "the validity period runs to the last checkpoint signed"
      )
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{ key_id: string; sealed: boolean }>`SELECT key_id, sealed FROM ledger_deployment_key`
      assert.deepStrictEqual(rows.map((r) => [r.key_id, r.sealed]), [[first.key_id, false]])
    })))

  it.effect("the website's export (its own code, under Node) is the `ledger export` format and verifies offline", () =>
    Effect.gen(function*() {
      const token = bodyOf(yield* post("/v1/me/session", {})).token
      const stream = streamOf((yield* (yield* Keys).authenticate(token)).userId)
      for (let day = 3; day <= 7; day++) {
        assertOk(yield* post("/v1/me/transactions", taxStatus(day % 2 === 0, day), bearer(token)), 201)
      }
      const services = yield* Effect.context<HttpClient.HttpClient>()
      const run = Effect.runPromiseWith(services)
      const exported = yield* Effect.promise(() =>
        ledgerExport((path: string) => run(get(path as "/v1/me/ledger", bearer(token))))
      )
      assert.isTrue(exported.ok)
      if (!exported.ok) return
      const lines = exported.text.trimEnd().split("\n")
      // Event for event what `ledger export --stream` writes; then the checkpoint line.
      assert.deepStrictEqual(lines.slice(0, 5), [...yield* (yield* Audit).exportStream(stream)])
      assert.include(lines[0]!, `"metadata":{`, "the metadata the hash covers is there")
      assert.strictEqual(JSON.parse(lines[5]!).checkpoint.version, 5)

      const dir = mkdtempSync(join(tmpdir(), "psx-web-export-"))
      const current = bodyOf(yield* get("/v1/ledger/signing-key")).keys.find((k) => k.current)!
      writeFileSync(join(dir, "pub.pem"), current.public_key_pem)
      writeFileSync(join(dir, "export.ndjson"), exported.text)
      const script = join(ROOT, "docs/verify-ledger.mjs")
      const r = spawnSync(
        process.execPath,
        [script, "--public-key", join(dir, "pub.pem"), join(dir, "export.ndjson")],
        { encoding: "utf8", env: {} }
      )
      assert.strictEqual(r.status, 0, r.stdout + r.stderr)
      assert.include(r.stdout, "1 streams, 5 events, 1 signed checkpoints")
      assert.include(r.stdout, "OK: every chain recomputes")
    }))
})

const passphrase = "a passphrase for this test only"
layer(
  TestApp({
    now: "2026-11-21T05:00:00.000Z",
    ...noConfiguredKey(),
    ledgerKeyPassphrase: Option.some(Redacted.make(passphrase))
  }),
  { timeout: 300_000, excludeTestServices: true }
)("the deployment key's first use, with a passphrase", (it) => {
  it.effect("instances taking up a key at once on a fresh store agree on one key, stored once, sealed", () =>
    Effect.scoped(Effect.gen(function*() {
      const instances = yield* Effect.all(Array.from({ length: 4 }, () => anotherInstance), {
        concurrency: "unbounded"
      })
      const keys = yield* Effect.all(instances.map((i) => i.signer.publicKeys), { concurrency: "unbounded" })
      const current = keys.map((k) => k.keys.find((x) => x.current)?.key_id)
      assert.strictEqual(new Set(current).size, 1, JSON.stringify(current))
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<
        { key_id: string; sealed: boolean; private_key_pem: string }
      >`SELECT key_id, sealed, private_key_pem FROM ledger_deployment_key`
      assert.deepStrictEqual(rows.map((r) => [r.key_id, r.sealed]), [[current[0], true]])
      assert.match(rows[0]!.private_key_pem, /^-----BEGIN ENCRYPTED PRIVATE KEY-----/)
      const opened = openDeploymentKey(rows[0]!, Option.some(Redacted.make(passphrase)))
      assert.notTypeOf(opened, "string", String(opened))
    })))
})

describe("a sealed deployment key", () => {
  const key = generateKeyPairSync("ed25519").privateKey
  const keyId = keyIdOf(createPublicKey(key))
  const pass = (text: string) => Option.some(Redacted.make(text))

  it("opens with its passphrase only; an unsealed or altered row is refused while a passphrase is set", () => {
    const sealed = { key_id: keyId, private_key_pem: pemOf(key, pass("correct horse")), sealed: true }
    assert.include(sealed.private_key_pem, "ENCRYPTED PRIVATE KEY")
    assert.notInclude(sealed.private_key_pem, String(key.export({ type: "pkcs8", format: "pem" })).split("\n")[1]!)
    const opened = openDeploymentKey(sealed, pass("correct horse"))
    assert.notTypeOf(opened, "string", String(opened))
    assert.strictEqual(typeof opened !== "string" && keyIdOf(createPublicKey(opened)), keyId)
    assert.match(String(openDeploymentKey(sealed, pass("wrong"))), /does not open with LEDGER_KEY_PASSPHRASE/)
    assert.match(String(openDeploymentKey(sealed, Option.none())), /sealed: set LEDGER_KEY_PASSPHRASE/)
    // Someone with write access puts a key of their own in the clear, or under the right id.
    const attacker = generateKeyPairSync("ed25519").privateKey
    const plain = {
      key_id: keyIdOf(createPublicKey(attacker)),
      private_key_pem: String(attacker.export({ type: "pkcs8", format: "pem" })),
      sealed: false
    }
    assert.match(String(openDeploymentKey(plain, pass("correct horse"))), /not sealed with it/)
    assert.match(String(openDeploymentKey({ ...plain, key_id: keyId }, Option.none())), /the row was altered/)
  })
})

describe("the real service on a throwaway store, without a configured key", () => {
  const env = { PSX_AUTO_IMPORT: "false", CURSOR_SECRET: "signing-test" }
  it.live(
    "after a restart (and beside a second instance on PostgreSQL) verify stays ok, and so does the CLI's ledger verify",
    () =>
      Effect.gen(function*() {
        const store = yield* throwawayStore
        const first = yield* startService(store, { env })
        const token = (yield* call(`${first.url}/v1/me/session`, { method: "POST" })).body.token as string
        const write = (url: string, day: number) =>
          call(`${url}/v1/me/transactions`, {
            method: "POST",
            headers: { ...bearer(token), "content-type": "application/json" },
            body: JSON.stringify(taxStatus(day % 2 === 0, day))
          })
        const checkpoint = (url: string) =>
          Effect.map(call(`${url}/v1/me/ledger/checkpoint`, { headers: bearer(token) }), (r) => r.body.key_id as string)
        const verify = (url: string) =>
          Effect.map(call(`${url}/v1/me/ledger/verify`, { headers: bearer(token) }), (r) => r.text)
        assert.strictEqual((yield* write(first.url, 3)).status, 201)
        const keyId = yield* checkpoint(first.url)
        if (store.mode === "postgres") {
          const second = yield* startService(store, { env })
          assert.strictEqual((yield* write(second.url, 4)).status, 201)
          assert.strictEqual(yield* checkpoint(second.url), keyId, "the second instance signs with the same key")
          for (const url of [first.url, second.url]) assert.include(yield* verify(url), `"ok":true`)
          yield* second.kill("SIGTERM")
        }
        yield* first.kill("SIGTERM")
        const restarted = yield* startService(store, { env })
        assert.include(yield* verify(restarted.url), `"ok":true`, "checkpoints signed before the restart still verify")
        assert.strictEqual((yield* write(restarted.url, 5)).status, 201)
        assert.strictEqual(yield* checkpoint(restarted.url), keyId)
        const published = (yield* call(`${restarted.url}/v1/ledger/signing-key`)).body
        assert.deepStrictEqual(published.keys.map((k: { key_id: string }) => k.key_id), [keyId])
        yield* restarted.kill("SIGTERM")
        const cli = spawnSync(process.execPath, ["src/main.ts", "ledger", "verify"], {
          cwd: ROOT,
          encoding: "utf8",
          env: {
            PATH: process.env["PATH"] ?? "",
            HOME: process.env["HOME"] ?? "/tmp",
            LOG_LEVEL: "Warn",
            ...env,
            ...store.env
          }
        })
        assert.strictEqual(cli.status, 0, cli.stdout + cli.stderr)
        assert.include(cli.stdout, "OK: every hash chain verifies")
        console.log(
          `restart${
            isRealPostgres ? " and a second instance" : ""
          } on ${store.mode}: one key ${keyId}, verify ok, CLI verify ok`
        )
      }),
    600_000
  )
})
