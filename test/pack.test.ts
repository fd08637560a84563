/**
 * The data pack's provenance: a manifest missing a provenance field does not
 * build and does not import; an import records when each recording was
 * retrieved from upstream (from the manifest) apart from when it was loaded
 * (the clock, here an explicit instant), and dates rows only from the manifest.
 */
import { NodeServices } from "@effect/platform-node"
import { assert, describe, it, layer } from "@effect/vitest"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { manifestProblems, PackManifest } from "../domain/pack/Pack.ts"
import { PackImport } from "../src/ingest/PackImport.ts"
import { DataPack, defaultPackDirectory } from "../src/sources/DataPack.ts"
import { readPsx } from "./support/Fixtures.ts"
import { TestStore } from "./support/TestApp.ts"

const shipped: unknown = JSON.parse(readFileSync(join(defaultPackDirectory, "manifest.json"), "utf8"))
const manifest = Schema.decodeUnknownSync(PackManifest)(shipped)
/** The shipped manifest with one field of one dataset removed (JSON round trip, so nothing else changes). */
const without = (id: string, field: string): unknown => {
  const copy: { datasets: Array<Record<string, unknown>> } = JSON.parse(JSON.stringify(shipped))
  const entry = copy.datasets.find((d) => d["id"] === id)!
  delete entry[field]
  return copy
}

describe("pack provenance is checked", () => {
  it("the shipped manifest is complete", () => {
    assert.deepStrictEqual(manifestProblems(shipped), [])
  })

  it("a dataset without its retrieval date, as-of or commit fails the build check, naming the dataset and field", () => {
    assert.deepStrictEqual(manifestProblems(without("screener", "recordedAt")), [
      "datasets.2.recordedAt (dataset screener): Missing key"
    ])
    assert.deepStrictEqual(manifestProblems(without("board_allshr", "asOf")), [
      "datasets.4.asOf (dataset board_allshr): Missing key"
    ])
    assert.strictEqual(manifestProblems(without("payouts", "commit")).length, 1)
  })

  it("an empty field or a made-up shape of date is a problem too", () => {
    const copy: { datasets: Array<Record<string, unknown>> } = JSON.parse(JSON.stringify(shipped))
    copy.datasets[0]!["licence"] = ""
    copy.datasets[1]!["recordedAt"] = "April 2026"
    assert.strictEqual(manifestProblems(copy).length, 2)
  })

  it.effect("a pack whose manifest lacks a field does not import: SOURCE_UNAVAILABLE naming the field", () =>
    Effect.gen(function*() {
      const dir = mkdtempSync(join(tmpdir(), "psx-pack-"))
      yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dir, { recursive: true, force: true })))
      for (const f of readdirSync(defaultPackDirectory)) {
        if (f !== "manifest.json") copyFileSync(join(defaultPackDirectory, f), join(dir, f))
      }
      writeFileSync(join(dir, "manifest.json"), JSON.stringify(without("company_pages", "asOf")))
      const pack = yield* Effect.provide(DataPack, DataPack.layerAt(dir).pipe(Layer.provide(NodeServices.layer)))
      const error = yield* Effect.flip(pack.dataset("company_pages"))
      assert.strictEqual(error.error, "SOURCE_UNAVAILABLE")
      assert.include(error.message, "asOf")
    }))
})

const LOADED = Date.parse("2030-06-01T12:00:00.000Z")

layer(TestStore(), { timeout: 300_000, excludeTestServices: true })("importing the pack", (it) => {
  it.effect(
    "retrieved_at is each recording's retrieval date from the manifest; loaded_at is the import's instant",
    () =>
      Effect.gen(function*() {
        const importer = yield* PackImport
        // The import alone runs on the test clock, set to an explicit instant.
        const summary = yield* Effect.gen(function*() {
          yield* TestClock.setTime(LOADED)
          return yield* importer.run({ force: true })
        }).pipe(Effect.provide(TestClock.layer()))
        assert.deepStrictEqual(summary.steps.map((s) => s.dataset), [
          "sectors",
          "universe",
          "index_membership",
          "index_levels",
          "index_closes",
          "daily_prices",
          "price_disagreements",
          "quotes (derived)",
          "fundamentals",
          "company_pages",
          "financials_sales",
          "payouts",
          "corporate_actions (derived)",
          "announcements",
          "news"
        ])
        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql<{ id: string; retrieved_at: string; loaded_at: string }>`
        select id, retrieved_at, to_char(loaded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as loaded_at
        from datasets order by id`
        assert.strictEqual(rows.length, manifest.datasets.length)
        for (const r of rows) {
          const entry = manifest.datasets.find((d) => d.id === r.id)!
          assert.strictEqual(r.retrieved_at, entry.recordedAt, r.id)
          assert.strictEqual(r.loaded_at, "2030-06-01T12:00:00.000Z", r.id)
        }
        // Spot values from the recordings' provenance: the mtauha probe was
        // taken on 2026-04-08; the psx-analyzer recording at its 2026-07-08 commit.
        assert.strictEqual(rows.find((r) => r.id === "screener")!.retrieved_at, "2026-04-08")
        assert.strictEqual(rows.find((r) => r.id === "prices_eod")!.retrieved_at, "2026-07-08")
      }),
    300_000
  )

  it.effect("KSE-100's recorded closes are stored each with its dataset; the securities listed since April name the screener that first showed them", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const lines = readPsx("I-Zaifa__psx-analyzer/data/csv/macro_kse100.csv").trim().split(/\r?\n/).slice(1)
      const closes = yield* sql<{ code: string; dataset: string; n: number; first: string; last: string }>`
        select code, dataset, count(*)::int as n, min(date)::text as first, max(date)::text as last from index_closes group by 1, 2`
      assert.deepStrictEqual(closes.map((c) => [c.code, c.dataset, c.n, c.first, c.last]), [
        ["KSE100", "index_history_kse100", lines.length, lines[0]!.slice(0, 10), lines[lines.length - 1]!.slice(0, 10)]
      ])
      const since = yield* sql<
        { symbol: string }
      >`select symbol from securities where dataset = 'universe_2026_08_04' order by 1`
      assert.includeMembers(since.map((r) => r.symbol), ["SELECT", "SLM", "SPSL"])
      assert.strictEqual(since.length, 10)
    }))

  it.effect("rows are dated from the manifest: index membership as shown on 2026-04-08, the board quote at 10:05 UTC", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const effective = yield* sql<{ index_code: string; d: string; n: number }>`
        select index_code, effective_date::text as d, count(*)::int as n from index_membership group by 1, 2 order by 1, 2`
      assert.deepStrictEqual(effective.map((e) => [e.index_code, e.d, e.n]), [
        ["ALLSHR", "2026-04-08", 549],
        ["KSE100", "2026-04-08", 100],
        ["KSE100", "2026-08-04", 100]
      ])
      // Both screener snapshots are kept, each with its own date; the served row is each symbol's newest.
      const kept = yield* sql<{ dataset: string; as_of: string }>`
        select distinct dataset, as_of from fundamentals_snapshots order by 1`
      assert.deepStrictEqual(kept.map((r) => [r.dataset, r.as_of]), [
        ["screener", "2026-04-08"],
        ["screener_2026_08_04", "2026-08-04T17:23:38.308Z"]
      ])
      const served = yield* sql<
        { as_of: string }
      >`select distinct as_of from fundamentals where dataset like 'screener%' order by 1`
      assert.deepStrictEqual(served.map((r) => r.as_of), ["2026-04-08", "2026-08-04T17:23:38.308Z"])
      const board = yield* sql<{ t: string }>`
        select distinct to_char(as_of AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI') as t from quotes where basis = 'board_snapshot'`
      assert.deepStrictEqual(board.map((r) => r.t), ["2026-04-08T10:05"])
    }))
})
