/**
 * A change detector, not a source of truth: every sampled public answer (test/support/AnswerSample.ts) must be
 * byte-equal to its recording in test/fixtures/answers/, so a change not meant to change behaviour leaves each
 * status, content type and body as it was. The recordings are whatever the service answered, mistakes included;
 * a wrong figure is caught by the oracle tests (test/truth-market.test.ts, test/filings-truth.test.ts,
 * test/ledger-truth.test.ts, the domain unit tests), never by these. After an intended change,
 * `npm run answers:record` re-records the sample and the diff shows what changed.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Layer, Option, Redacted } from "effect"
import { CURSOR_SECRET, fileOf, NOW, record, recorded, render, SAMPLE, storedFiles } from "./support/AnswerSample.ts"
import { sendRaw } from "./support/RawHttp.ts"
import { FrozenClockLayer } from "./support/ShiftedClock.ts"
import { TestApp } from "./support/TestApp.ts"

const recording = process.env["PSX_RECORD_ANSWERS"] === "1"
const App = TestApp({ withPack: true, cursorSecret: Option.some(Redacted.make(CURSOR_SECRET)) }).pipe(
  Layer.provideMerge(FrozenClockLayer(NOW))
)

layer(App, { timeout: 600_000, excludeTestServices: true })("public answers", (it) => {
  it.effect(
    recording ? "records the sample" : "every sampled answer is byte-equal to the recording",
    () =>
      Effect.gen(function*() {
        const answers = yield* Effect.forEach(SAMPLE, (r) =>
          Effect.map(
            sendRaw({
              method: r.method,
              url: r.url,
              headers: r.body === undefined ? {} : { "content-type": "application/json" },
              ...(r.body === undefined ? {} : { body: JSON.stringify(r.body) })
            }, 60_000),
            (o) =>
              [r, o._tag === "Answered" ? render(o.status, o.contentType, o.text) : `no answer: ${o.reason}`] as const
          ))
        if (recording) return record(answers)
        assert.deepStrictEqual(
          storedFiles(),
          SAMPLE.map(fileOf).sort(),
          "one recording per sampled request (npm run answers:record)"
        )
        for (const [r, text] of answers) assert.strictEqual(text, recorded(r), `${r.method} ${r.url} (${fileOf(r)})`)
      })
  )
})
