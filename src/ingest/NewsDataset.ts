/**
 * News read live from publishers' feeds (src/sources/NewsFeeds.ts) into the
 * same news rows as the pack's recorded news (./Tables.ts newsRows). Each
 * run reads every configured feed, tags stories with the companies they name
 * (the same tagger and alias table as the pack's news, limited to the stored
 * universe), and groups them into events together with the
 * events already stored in the window, so that a story republished in a later
 * run joins its event instead of becoming a second one.
 */
import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { SourceUnavailable } from "../../domain/Errors.ts"
import { NewsRow } from "../../domain/market/snapshot/StoreRows.ts"
import { EVENT_WINDOW_HOURS, type FeedItem, newsEvents } from "../../domain/news/News.ts"
import { feedItemsOf, type RssItem } from "../../domain/news/Rss.ts"
import { newsTagger } from "../../domain/news/Tagger.ts"
import type { NewsFeeds } from "../sources/NewsFeeds.ts"
import { decodeRows } from "./Bulk.ts"
import { upsertChanged } from "./Changes.ts"
import { companyAliases } from "./CompanyAliases.ts"
import type { DatasetWrite, Outcome, PortalDataset } from "./DatasetDefinition.ts"
import { newsRows, newsTable } from "./Tables.ts"

/** The dataset id of live news: its rows, provenance and crawl state. */
export const NEWS_DATASET = "rss_news"
const WINDOW_MS = EVENT_WINDOW_HOURS * 3_600_000

const listedRow = Schema.Struct({ symbol: Schema.String })

/** Every configured feed, one at a time; a feed that fails is counted, and only all failing fails the run. */
export const readFeeds = (feeds: typeof NewsFeeds.Service) =>
  Effect.gen(function*() {
    const items: Array<RssItem> = []
    const skipped: Record<string, number> = {}
    const failures: Array<string> = []
    for (const url of feeds.feeds) {
      const got = yield* Effect.result(feeds.read(url))
      if (got._tag === "Failure") {
        failures.push(got.failure.message)
        continue
      }
      items.push(...got.success.rows)
      for (const [why, n] of Object.entries(got.success.skipped)) skipped[why] = (skipped[why] ?? 0) + n
    }
    if (items.length === 0) {
      return yield* new SourceUnavailable({
        message: feeds.feeds.length === 0
          ? "no news feed is configured (PSX_NEWS_FEEDS)"
          : `every news feed failed: ${failures.join("; ").slice(0, 400)}`
      })
    }
    for (const f of failures) skipped[`feed unavailable: ${f.slice(0, 120)}`] = 1
    return { items, skipped }
  })

/** Stored live-news rows of every event with a source at or after `since`. */
const storedEvents = (since: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return yield* decodeRows(NewsRow)(sql`
      SELECT id, symbol, title, url, to_char(published_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS published_at,
        event_date::text AS event_date, republished, dataset, source_keywords
      FROM news_items WHERE dataset = ${NEWS_DATASET} AND split_part(id, '/', 1) IN (
        SELECT split_part(id, '/', 1) FROM news_items WHERE dataset = ${NEWS_DATASET} AND published_at >= ${since}::timestamptz)`)
  })

/**
 * The write: tag the items, regroup them with the stored events they may
 * join, replace those events' rows. Rows whose event id changed (an earlier
 * copy arrived late) are removed; nothing outside the window is touched.
 */
export const writeNews = (items: ReadonlyArray<RssItem>, skipped: Readonly<Record<string, number>>): DatasetWrite =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const universe = yield* decodeRows(listedRow)(sql`SELECT symbol FROM securities`)
    const fresh = feedItemsOf(items, newsTagger(companyAliases(), new Set(universe.map((u) => u.symbol))))
    const earliest = fresh.reduce((m, it) => (it.publishedAt < m ? it.publishedAt : m), fresh[0]!.publishedAt)
    const stored = yield* storedEvents(new Date(Date.parse(earliest) - WINDOW_MS).toISOString())
    const storedItems: ReadonlyArray<FeedItem> = stored.flatMap((r) =>
      r.url === undefined
        ? []
        : [{
          url: r.url,
          title: r.title,
          publishedAt: r.published_at,
          symbols: r.symbol !== undefined ? [r.symbol] : []
        }]
    )
    const rows = newsRows(newsEvents([...storedItems, ...fresh]), NEWS_DATASET)
    const keep = new Set(rows.map((r) => r.id))
    const gone = stored.map((r) => r.id).filter((id) => !keep.has(id))
    if (gone.length > 0) yield* sql`DELETE FROM news_items WHERE dataset = ${NEWS_DATASET} AND id IN ${sql.in(gone)}`
    const w = yield* upsertChanged(newsTable, rows)
    const newest = fresh.reduce((m, it) => (it.publishedAt > m ? it.publishedAt : m), earliest)
    return {
      read: items.length,
      written: w.written + gone.length,
      unchanged: w.unchanged,
      skipped,
      asOf: newest
    } satisfies Outcome
  })

/**
 * Live news as a crawler dataset: every configured feed every 30 minutes,
 * written under the publishers' provenance (not the exchange's).
 */
export const news: PortalDataset = {
  kind: "news",
  title: "Business news (live, publishers' RSS and Atom feeds)",
  route: "RSS feeds",
  scope: "market",
  everyMs: 30 * 60_000,
  table: "news_items",
  dateColumn: "published_at",
  provenance: {
    id: NEWS_DATASET,
    source: "publishers' RSS and Atom feeds (PSX_NEWS_FEEDS)",
    upstream: "the configured feed addresses",
    licence: "headlines, addresses and times belong to their publishers; the service stores no article text",
    notes:
      "read live by the crawler; symbols tagged by the companies a headline or summary names (domain/news/company-aliases.json); republished copies join one event"
  },
  run: (_key, { feeds }) => Effect.map(readFeeds(feeds), ({ items, skipped }) => writeNews(items, skipped))
}
