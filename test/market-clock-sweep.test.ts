/**
 * The sweep of every market route that takes `as_of`, at
 * 30 instants, for 20 symbols (a route without a symbol once per instant),
 * on either store. It fails on
 * - look-ahead: any date or instant in an answer later than its instant,
 *   but the fields that name a schedule announced ahead (book closure, last
 *   buy and XD days, a dividends area's book-closure dates, the next session) or the recording that proves a figure
 *   (a source's `retrieved_at`, a dataset's `loaded_at`);
 * - known-but-missing: any figure a table made from the recordings' own
 *   dates (KnownTable below) says was public by the instant and the answer
 *   lacks: the last recorded close (as the quote), each payout announced by
 *   then, the newest screener's P/E, the number of news items published.
 * It prints its figures. Beside it, the heavier single cases: MEBL's dividends and the news at an instant, a load
 * answered 503, and one client's flood of instants that cannot deny another's.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Duration, Effect, Fiber } from "effect"
import { karachiDate } from "../domain/Karachi.ts"
import { asOfInstant } from "../src/market/readmodel/AsOf.ts"
import { CACHED_SNAPSHOTS, LoadWait, PointInTime, SNAPSHOT_CACHE_BYTES } from "../src/market/readmodel/PointInTime.ts"
import { pollUntil } from "./support/Eventually.ts"
import { getAsOf as get, knownTable, readPack } from "./support/KnownTable.ts"
import { assertFailed, assertOk, bodyOf, get as getNow, TestApp } from "./support/TestApp.ts"

type PayoutLine = { symbol: string; announcedAt?: string }
type NewsLine = { publishedAt: string }

const NOW = "2026-10-05T12:00:00.000Z"

/** Month ends, the last sessions, and the instants around the recordings' own dates (a session's close, a retrieval). */
export const INSTANTS = [
  "2021-01-21",
  "2023-05-26T10:29:00Z",
  "2023-05-26",
  "2023-05-27",
  "2024-01-01",
  "2024-06-30",
  "2025-04-28",
  "2025-08-13T10:39:00Z",
  "2025-08-13T10:41:00Z",
  "2025-09-19T12:00:00Z",
  "2025-10-01",
  "2025-10-31",
  "2025-12-31",
  "2026-01-22",
  "2026-02-03",
  "2026-02-28",
  "2026-03-31",
  "2026-04-08T10:00:00Z",
  "2026-04-08",
  "2026-04-09T10:29:00Z",
  "2026-04-09",
  "2026-04-30",
  "2026-05-22",
  "2026-05-25",
  "2026-06-30",
  "2026-07-08",
  "2026-07-20",
  "2026-08-04T17:30:00Z",
  "2026-08-31",
  "2026-09-30"
]
export const SYMBOLS = [
  "MEBL",
  "BAFL",
  "LUCK",
  "OGDC",
  "HBL",
  "ENGRO",
  "UBL",
  "MCB",
  "PPL",
  "HUBC",
  "FFC",
  "SYS",
  "EFERT",
  "PSO",
  "BOP",
  "KOHC",
  "NBP",
  "POL",
  "SNGP",
  "TRG"
]

/** Fields that name a schedule announced ahead of its days, or the recording that proves a figure. */
const AHEAD = new Set([
  "book_closure_from",
  "book_closure_to",
  "last_buy_date",
  "xd_date",
  "ex_date",
  "payment_date",
  "next_session",
  "next_trading_day",
  "next_trade_date",
  "retrieved_at",
  "recorded_in",
  "loaded_at",
  "entitlement_date",
  "settles_on",
  // The session the circuit-breaker bounds are for: the next one, set by the last close.
  "session"
])
const DATE = /^\d{4}-\d{2}-\d{2}$/
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/

/** Every dated value of an answer later than `at` (a date later than its Karachi day), with its path; counts the checked. */
const lookAhead = (body: unknown, at: number, counted: { n: number }) => {
  const day = karachiDate(at)
  const found: Array<string> = []
  const walk = (value: unknown, path: string) => {
    if (typeof value === "string") {
      if (DATE.test(value)) {
        counted.n++
        if (value > day) found.push(`${path}=${value}`)
      } else if (INSTANT.test(value)) {
        counted.n++
        if (Date.parse(value) > at) found.push(`${path}=${value}`)
      }
    } else if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${path}[${i}]`))
    else if (value !== null && typeof value === "object") {
      // A symbol's dividends area is dated by book closure: a schedule announced ahead, like book_closure_from.
      const schedule = (value as { readonly area?: unknown }).area === "dividends"
      for (const [k, v] of Object.entries(value)) {
        if (!AHEAD.has(k) && k !== "next_cursor" && !(schedule && (k === "first_date" || k === "last_date"))) {
          walk(v, `${path}.${k}`)
        }
      }
    }
  }
  walk(body, "")
  return found
}

type OpenApi = { paths: Record<string, { get?: { parameters?: ReadonlyArray<{ name: string; in: string }> } }> }

/** The market routes that take `as_of`, as the OpenAPI document lists them. */
const asOfRoutes = (doc: OpenApi) =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    item.get?.parameters?.some((p) => p.name === "as_of" && p.in === "query") ? [path] : []
  )

/** A route's path for a symbol (its sector's code for a sector route, its index for an index route). */
const pathFor = (route: string, symbol: string, sectorOf: ReadonlyMap<string, string>) =>
  route.replace(/\{(symbol|sym)\}/, symbol).replace(
    "{id}",
    route.startsWith("/v1/indices") ? "KSE100" : sectorOf.get(symbol) ?? "0807"
  )

describe("the market clock sweep", () => {
  layer(TestApp({ withPack: true, now: NOW }), { timeout: 600_000, excludeTestServices: true })(
    "over the pack",
    (it) => {
      it.effect(
        "no figure after its instant; every figure the recordings prove known is there",
        () =>
          Effect.gen(function*() {
            const routes = asOfRoutes(bodyOf(yield* getNow("/openapi.json")) as OpenApi)
            const perSymbol = routes.filter((r) => r.includes("{"))
            const table = knownTable(SYMBOLS)
            const counted = { n: 0 }
            const ahead: Array<string> = []
            const missing: Array<string> = []
            for (const [i, text] of INSTANTS.entries()) {
              const at = asOfInstant(text)!
              const q = `as_of=${encodeURIComponent(text)}`
              const globals = routes.filter((r) => !r.includes("{"))
              // Once this instant is loaded, the next one's load starts while this one's answers are read.
              yield* get(`/v1/market/status?${q}` as "/v1/news")
              const next = INSTANTS[i + 1]
              if (next !== undefined) {
                yield* Effect.forkChild(getNow(`/v1/market/status?as_of=${encodeURIComponent(next)}` as "/v1/news"))
              }
              for (const route of globals) {
                const r = yield* get(`${route}?${q}` as "/v1/news")
                ahead.push(...lookAhead(r.body, at, counted).map((f) => `${text} ${route}${f}`))
              }
              const paths = SYMBOLS.flatMap((symbol) =>
                perSymbol.map((route) => `${pathFor(route, symbol, table.sectorOf)}?${q}`)
              )
              yield* Effect.forEach(paths, (path) =>
                Effect.map(get(path as "/v1/news"), (r) => {
                  ahead.push(...lookAhead(r.body, at, counted).map((f) => `${text} ${path}${f}`))
                }), { concurrency: 4, discard: true })
              missing.push(...(yield* table.missingAt(text, at, get)))
            }
            const figures = {
              instants: INSTANTS.length,
              symbols: SYMBOLS.length,
              routes: routes.length,
              per_symbol_routes: perSymbol.length,
              dated_values_checked: counted.n,
              known_checks: table.checks(),
              look_ahead: ahead.length,
              known_but_missing: missing.length
            }
            console.log(
              `market clock sweep (${process.env["DATABASE_URL"] ? "PostgreSQL" : "PGlite"}): ${
                JSON.stringify(figures)
              }`
            )
            assert.deepStrictEqual(ahead.slice(0, 20), [], "figures dated after their instant")
            assert.deepStrictEqual(missing.slice(0, 20), [], "figures the recordings prove known, missing")
            assert.isAtLeast(routes.length, 20)
          }),
        { timeout: 600_000 }
      )

      it.effect("MEBL's dividends at 2025-10-01: the payouts announced by then, with a face value sourced by then", () =>
        Effect.gen(function*() {
          const at = asOfInstant("2025-10-01")!
          const announced = [
            ...(readPack("payouts_company_pages_2025_09.json") as ReadonlyArray<PayoutLine>),
            ...(readPack("payouts.json") as ReadonlyArray<PayoutLine>)
          ].filter((p) => p.symbol === "MEBL" && p.announcedAt !== undefined && Date.parse(p.announcedAt) <= at)
          const expected = [...new Set(announced.map((p) => p.announcedAt!))].sort()
          const r = yield* get("/v1/dividends/MEBL?as_of=2025-10-01" as "/v1/dividends/MEBL")
          assertOk(r)
          assert.deepStrictEqual(r.body.items.map((i) => i.announced_at).sort(), expected)
          assert.strictEqual(r.body.face_value, 10)
          // The deployment had stored MEBL's listing only from 2026-04-08.
          assertFailed(yield* get("/v1/dividends/MEBL?recorded_as_of=2025-10-01" as "/v1/dividends/MEBL"), 404)
        }))

      it.effect("the news at 2026-07-20: every item published by the end of that day", () =>
        Effect.gen(function*() {
          const at = asOfInstant("2026-07-20")!
          const items = [
            ...(readPack("news.json.gz") as ReadonlyArray<NewsLine>),
            ...(readPack("news_headlines.json.gz") as ReadonlyArray<NewsLine>)
          ]
          const r = yield* get("/v1/news?as_of=2026-07-20&limit=5" as "/v1/news")
          assertOk(r)
          assert.strictEqual(r.body.total, items.filter((n) => Date.parse(n.publishedAt) <= at).length)
          for (const n of r.body.items) assert.isAtMost(Date.parse(n.published_at), at)
        }))

      it.effect("a request that outwaits its instant's load is 503 SOURCE_UNAVAILABLE (the load goes on)", () =>
        Effect.gen(function*() {
          const pit = yield* PointInTime
          const at = asOfInstant("2026-03-03")!
          const error = yield* Effect.flip(
            pit.snapshotAt(at, "market", ["test:impatient"]).pipe(Effect.provideService(LoadWait, Duration.zero))
          )
          assert.strictEqual(error.error, "SOURCE_UNAVAILABLE")
          assert.match(error.message, /being loaded/)
          // The load went on: a later request finds it.
          const loaded = yield* pollUntil(
            "loaded",
            Effect.exit(pit.snapshotAt(at, "market", ["test:impatient"])),
            (e) => e._tag === "Success",
            {
              within: "120 seconds",
              every: "250 millis"
            }
          )
          assert.strictEqual(loaded._tag, "Success")
        }))

      it.effect(
        "one client looping 5 instants cannot deny as_of to another; cached snapshots stay within their bytes",
        () =>
          Effect.gen(function*() {
            const pit = yield* PointInTime
            const floods = ["2024-01-01", "2026-01-22", "2026-04-08", "2026-07-08", "2026-09-01"].map((d) =>
              asOfInstant(d)!
            )
            // The victim asks for instants no one has asked for yet, one after the other (each a state of its own on either clock).
            const victims = [
              "2025-10-15",
              "2026-02-05",
              "2026-02-10",
              "2026-05-29",
              "2026-07-25",
              "2026-08-05",
              "2026-08-10",
              "2026-10-01"
            ]
              .map((d) => asOfInstant(d)!)
            const attacker = yield* Effect.forkChild(
              Effect.forever(
                Effect.forEach(floods, (at) => Effect.exit(pit.snapshotAt(at, "market", ["ip:attacker"])), {
                  discard: true
                })
              )
            )
            // Served at the first asking; else told to come back (503, the load going on) and served when it does; or refused (429).
            const outcomes = { first: 0, afterComingBack: 0, refused: 0 }
            for (const at of victims) {
              const ask = pit.snapshotAt(at, "market", ["ip:victim"]).pipe(
                Effect.as("served"),
                Effect.catch((e) => Effect.succeed(e.error))
              )
              const first = yield* ask
              if (first === "served") {
                outcomes.first++
              } else if (first === "RATE_LIMITED") outcomes.refused++
              else if (
                (yield* pollUntil("served", ask, (e) => e !== "SOURCE_UNAVAILABLE", {
                  within: "120 seconds",
                  every: "250 millis"
                })) === "served"
              ) {
                outcomes.afterComingBack++
              }
            }
            yield* Fiber.interrupt(attacker)
            console.log(`victim's as_of under the flood (${victims.length} instants): ${JSON.stringify(outcomes)}`)
            assert.strictEqual(outcomes.refused, 0, "no victim request is refused")
            assert.strictEqual(outcomes.first + outcomes.afterComingBack, victims.length)
            const cached = pit.cached()
            assert.isAtMost(cached.count, CACHED_SNAPSHOTS)
            assert.isAtMost(cached.bytes, SNAPSHOT_CACHE_BYTES)
          }),
        { timeout: 600_000 }
      )
    }
  )
})
