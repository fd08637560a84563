/**
 * A filing's exchange date apart from its time: `published_on` is the
 * Karachi date the exchange shows; `published_at` is kept only when the
 * source gave a time of day (NULL for a date-only filing, never an invented
 * midnight). Rows already stored from the date-only datasets (the company
 * pages and the filings inventory) lose the 00:00 Karachi they were given.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/** Datasets whose filings carry a date and no time. */
const DATE_ONLY = [
  "announcements_company_pages",
  "announcements_company_pages_2025_09",
  "announcements_filings_inventory"
]

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE announcements ADD COLUMN published_on date`
  yield* sql`UPDATE announcements SET published_on = (published_at AT TIME ZONE 'Asia/Karachi')::date`
  yield* sql`ALTER TABLE announcements ALTER COLUMN published_on SET NOT NULL`
  yield* sql`ALTER TABLE announcements ALTER COLUMN published_at DROP NOT NULL`
  yield* sql`UPDATE announcements SET published_at = NULL WHERE dataset IN ${sql.in(DATE_ONLY)}`
  yield* sql`DROP INDEX announcements_symbol`
  yield* sql`DROP INDEX announcements_published`
  yield* sql`CREATE INDEX announcements_symbol ON announcements (symbol, published_on DESC)`
  yield* sql`CREATE INDEX announcements_published ON announcements (published_on DESC, id)`
})
