/**
 * Migration 0021 on a store written before it: a filing stored from a
 * date-only dataset (00:00 Karachi, 19:00 UTC the day before) keeps its
 * Karachi date and loses the invented time; a timed portal filing keeps both.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import filingDates from "../migrations/0021_filing_dates.ts"
import { TestDatabase } from "./support/TestDatabase.ts"

layer(TestDatabase, { timeout: 120_000 })("migration 0021 (filing dates)", (it) => {
  it.effect("a date-only filing stored as 00:00 Karachi becomes its date; a timed one keeps its instant", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      // The table as 0002 left it.
      yield* sql`DROP INDEX announcements_symbol`
      yield* sql`DROP INDEX announcements_published`
      yield* sql`ALTER TABLE announcements DROP COLUMN published_on`
      yield* sql`ALTER TABLE announcements ALTER COLUMN published_at SET NOT NULL`
      yield* sql`CREATE INDEX announcements_symbol ON announcements (symbol, published_at DESC)`
      yield* sql`CREATE INDEX announcements_published ON announcements (published_at DESC, id)`
      // AIRLINK 263491, dated Oct 27, 2025 on its company page; HUBC 281033 at Aug 11, 2026 3:22 PM on the portal.
      yield* sql`INSERT INTO announcements (id, symbol, published_at, title, dataset) VALUES
        ('263491', 'AIRLINK', '2025-10-26T19:00:00Z', 'Transmission of Quarterly Financial Statements', 'announcements_company_pages'),
        ('281033', 'HUBC', '2026-08-11T10:22:00Z', 'Disclosure', 'announcements')`
      yield* filingDates
      const rows = yield* sql<{ id: string; on: string; at: string | null }>`
        SELECT id, published_on::text AS on, to_char(published_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI"Z"') AS at
        FROM announcements ORDER BY id`
      assert.deepStrictEqual(rows.map((r) => [r.id, r.on, r.at]), [
        ["263491", "2025-10-27", null],
        ["281033", "2026-08-11", "2026-08-11T10:22Z"]
      ])
    }))
})
