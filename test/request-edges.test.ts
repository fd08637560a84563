/**
 * The HTTP edges a careless client or an attacker reaches, through the request gate and the
 * layers `npm start` runs:
 *
 * - a refusal of a request over its rate limit is not signed, even when a signature is asked for;
 * - a client that closes mid-body is logged as having gone away, at Info: no error, no 500;
 * - `Expect: 100-continue` with a Content-Length over the 1 MiB limit is refused before 100 Continue;
 * - `signed` is read percent-decoded, name and value alike;
 * - an `Accept-Signature` nonce that cannot be echoed as sent is refused (400), not dropped;
 * - a query sent to a route that takes none (`/v1/me/holdings?x=1`) is refused like an unknown market parameter.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { HttpClient, HttpClientRequest, HttpServer } from "effect/http"
import { connect } from "node:net"
import { NOW } from "./support/AnswerSample.ts"
import { pollUntil } from "./support/Eventually.ts"
import { type LoggedEntry, requestGateApp } from "./support/RequestGateApp.ts"
import { FrozenClockLayer } from "./support/ShiftedClock.ts"

/** Every log entry: its level and message, as the loggers in force receive them. */
const logged: Array<LoggedEntry> = []

/** The burst of the address's bucket: the rate-limit test spends it last. */
const BURST = 60

const App = requestGateApp({ burst: BURST, clock: FrozenClockLayer(NOW), logged })

const get = (url: string, headers: Record<string, string> = {}) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const response = yield* client.execute(HttpClientRequest.get(url).pipe(HttpClientRequest.setHeaders(headers)))
    return { status: response.status, headers: response.headers, text: yield* response.text }
  }).pipe(Effect.orDie)

/** The server's port. */
const port = Effect.map(
  Effect.service(HttpServer.HttpServer),
  (server) => ("port" in server.address ? server.address.port : 0)
)

/** Writes `text` on a connection of its own; what the server wrote back within `ms` (or until it closed). */
const exchange = (text: string, options: { readonly closeAfterWrite?: boolean; readonly ms?: number } = {}) =>
  Effect.flatMap(port, (p) =>
    Effect.callback<string>((resume) => {
      const socket = connect(p, "127.0.0.1")
      let answer = ""
      const done = () => {
        clearTimeout(timer)
        socket.destroy()
        resume(Effect.succeed(answer))
      }
      const timer = setTimeout(done, options.ms ?? 2_000)
      socket.on("data", (chunk) => {
        answer += chunk.toString("latin1")
      })
      socket.on("close", done)
      socket.on("error", done)
      socket.write(text, () => {
        if (options.closeAfterWrite === true) done()
      })
    }))

const statusLine = (answer: string) => answer.split("\r\n", 1)[0]

layer(App, { timeout: 600_000, excludeTestServices: true })("request edges", (it) => {
  it.effect("`signed` is read percent-decoded: %73igned=true and signed=%74rue both ask for a signature", () =>
    Effect.gen(function*() {
      for (const query of ["signed=true", "%73igned=true", "signed=%74rue", "%73igned=%74rue"]) {
        const answer = yield* get(`/v1/quotes/HUBC?allow_stale=true&${query}`)
        assert.strictEqual(answer.status, 200, query)
        assert.isDefined(answer.headers["signature"], `${query}: signed`)
      }
      const refused = yield* get("/v1/quotes/HUBC?allow_stale=true&%73igned=maybe")
      assert.strictEqual(refused.status, 400)
    }))

  it.effect("an Accept-Signature nonce with a quote (or a backslash) is refused, not dropped", () =>
    Effect.gen(function*() {
      const fine = yield* get("/v1/quotes/HUBC?allow_stale=true", {
        "accept-signature": "sig1=(\"@status\");nonce=\"abc-123\""
      })
      assert.strictEqual(fine.status, 200)
      assert.include(fine.headers["signature-input"] ?? "", ";nonce=\"abc-123\"")
      for (
        const header of [
          "sig1=(\"@status\");nonce=\"a\\\"b\"",
          "sig1=(\"@status\");nonce=\"a\\\\b\"",
          "sig1=();nonce=\"\""
        ]
      ) {
        const answer = yield* get("/v1/quotes/HUBC?allow_stale=true", { "accept-signature": header })
        assert.strictEqual(answer.status, 400, header)
        assert.strictEqual(JSON.parse(answer.text).error, "INVALID_REQUEST", header)
      }
    }))

  it.effect("a query sent to a route that takes none is 400 naming it, like an unknown market parameter", () =>
    Effect.gen(function*() {
      const client = yield* HttpClient.HttpClient
      const session = yield* client.execute(HttpClientRequest.post("/v1/me/session")).pipe(Effect.orDie)
      const token = ((yield* session.json.pipe(Effect.orDie)) as { token: string }).token
      const bearer = { authorization: `Bearer ${token}` }
      // Without a credential the route says so first: the credential is checked before the request is read.
      assert.strictEqual((yield* get("/v1/me/holdings?x=1")).status, 401)
      for (const url of ["/v1/me/holdings?x=1", "/v1/me/transactions/export?x=1", "/v1/me/holdings?%78=1"]) {
        const answer = yield* get(url, bearer)
        assert.strictEqual(answer.status, 400, url)
        const body = JSON.parse(answer.text)
        assert.strictEqual(body.error, "INVALID_REQUEST", url)
        assert.include(body.message, "x", url)
      }
      // Without the query, the route answers as usual.
      assert.strictEqual((yield* get("/v1/me/holdings", bearer)).status, 200)
      // `signed` is the guard's, taken out before the rule applies.
      assert.strictEqual((yield* get("/v1/me/holdings?signed=true", bearer)).status, 200)
    }))

  it.effect("Expect: 100-continue with a body over the limit is refused before 100 Continue; within it, invited", () =>
    Effect.gen(function*() {
      const head = (length: number) =>
        `POST /v1/screener HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n` +
        "Expect: 100-continue\r\n\r\n"
      // 3 MB announced, nothing sent: the answer comes at once, and it is the refusal.
      const over = yield* exchange(head(3_000_000))
      assert.strictEqual(statusLine(over), "HTTP/1.1 400 Bad Request")
      assert.notInclude(over, "100 Continue")
      assert.include(over, "\"error\":\"INVALID_REQUEST\"")
      // 2 bytes announced: 100 Continue, and the server waits for the body.
      const within = yield* exchange(head(2), { ms: 500 })
      assert.strictEqual(statusLine(within), "HTTP/1.1 100 Continue")
    }))

  it.effect("a client that closes mid-body is logged at Info as gone, with no error and no 500", () =>
    Effect.gen(function*() {
      const from = logged.length
      yield* exchange(
        "POST /v1/screener HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"pe_max\":",
        { closeAfterWrite: true }
      )
      const gone = yield* pollUntil(
        "the request is logged",
        Effect.sync(() => logged.slice(from)),
        (lines) => lines.some((l) => JSON.stringify(l.message).includes("client closed the request")),
        { within: "10 seconds", every: "50 millis" }
      )
      const line = gone.find((l) => JSON.stringify(l.message).includes("client closed the request"))!
      assert.strictEqual(line.level, "Info")
      assert.deepStrictEqual(gone.filter((l) => l.level === "Error" || l.level === "Fatal"), [], "no error is logged")
      assert.notInclude(JSON.stringify(gone), "\"status\":500")
    }))

  it.effect("a refusal over the rate limit is not signed, though a signature was asked for", () =>
    Effect.gen(function*() {
      // The bucket holds BURST tokens and the clock is stopped: BURST + 5 requests run it out.
      const answers = []
      for (let i = 0; i < BURST + 5; i++) answers.push(yield* get("/v1/quotes/HUBC?allow_stale=true&signed=true"))
      const limited = answers.filter((a) => a.status === 429)
      assert.isAbove(limited.length, 0)
      for (const answer of limited) {
        assert.isUndefined(answer.headers["signature"])
        assert.isUndefined(answer.headers["content-digest"])
      }
      assert.isDefined(answers[0]!.headers["signature"], "an answer within the limit is signed")
    }))
})
