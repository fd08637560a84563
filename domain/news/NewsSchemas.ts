/**
 * News as served (`GET /v1/news`, MCP get_news, the research package): one
 * item per event, with every source that carried it. `published_at` is the
 * first publisher's own time (`published_at_basis: "publisher"`), or for the
 * recorded headline digests, which give only the time they were fetched, the
 * first fetch that lists the item (`"first_seen"`: published no later);
 * `event_date`, when the thing reported happened, is absent when unknown
 * (always, for feed news). `symbols` are tags, not an exchange field: the
 * companies the headline or summary names (domain/news/Tagger.ts), for
 * recorded and live news alike.
 */
import { Schema } from "effect"
import { Page, Source } from "../market/shared/Schemas.ts"
import type { NewsRow } from "../market/snapshot/StoreRows.ts"
import { publisherOf } from "./News.ts"

const Instant = Schema.String.annotate({ description: "Instant, ISO 8601 UTC" })

export const NewsSourceItem = Schema.Struct({
  publisher: Schema.String,
  url: Schema.String,
  title: Schema.String.annotate({ description: "The headline as this source carried it" }),
  published_at: Instant.annotate({ description: "This source's publication time" })
})

export const NewsItem = Schema.Struct({
  id: Schema.String,
  title: Schema.String,
  symbols: Schema.Array(Schema.String).annotate({
    description:
      "Listed companies the headline or summary names (not an exchange field): by ticker, registered name or a short name " +
      "people use, from one reviewed alias table, for recorded and live news alike; a recording's search keywords are never tags. " +
      "Empty when the story names no listed company"
  }),
  published_at: Instant.annotate({
    description:
      "The first publisher's own time (basis publisher); for the recorded headline digests, which carry no publication " +
      "time, the first digest that listed the item (basis first_seen: published no later than this)"
  }),
  published_at_basis: Schema.Literals(["publisher", "first_seen"]),
  event_date: Schema.optionalKey(
    Schema.String.annotate({ description: "When the reported event happened (YYYY-MM-DD); absent when unknown" })
  ),
  source_keywords: Schema.optionalKey(
    Schema.Array(Schema.String).annotate({
      description:
        "The words the recording's author searched for to find this item (psx-engine's per-item symbol): not tags and not " +
        "a claim that the item is about them; absent when the source has none"
    })
  ),
  republished: Schema.Boolean.annotate({
    description:
      "True when more than one source carried the story (another outlet, or a republication): still one event"
  }),
  url: Schema.String.annotate({ description: "The first source's address" }),
  sources: Schema.Array(NewsSourceItem)
})
export type NewsItem = typeof NewsItem.Type

/** Datasets whose times are when the item was first seen (a fetch), not the publisher's. */
export const FIRST_SEEN_DATASETS: ReadonlySet<string> = new Set(["news_headlines"])

export const News = Schema.Struct({
  coverage: Schema.Literals(["recorded", "unknown"]).annotate({
    description:
      "recorded when news was read for the asked days (and, with symbol, some item names the company); unknown outside " +
      "the recorded windows, which the note then lists: unknown, not 'no news'"
  }),
  note: Schema.optionalKey(Schema.String),
  ...Page.fields,
  items: Schema.Array(NewsItem),
  sources: Schema.Array(Source).annotate({ description: "Provenance of the datasets the page was read from" })
})

/**
 * Stored rows (one per source and symbol tag, ids `<event>/<source>[/<symbol>]`)
 * → events, newest first by first publication, then id.
 */
export const newsEventsOf = (
  rows: ReadonlyArray<NewsRow>
): ReadonlyArray<NewsItem & { readonly datasets: ReadonlyArray<string> }> => {
  const events = new Map<string, { rows: Array<NewsRow> }>()
  for (const r of rows) {
    const id = r.id.split("/")[0]!
    const e = events.get(id)
    if (e === undefined) events.set(id, { rows: [r] })
    else e.rows.push(r)
  }
  const out = [...events].map(([id, { rows: mine }]) => {
    const bySource = new Map<string, NewsRow>()
    for (const r of mine) {
      const key = r.url ?? r.id
      const seen = bySource.get(key)
      if (seen === undefined || r.published_at < seen.published_at) bySource.set(key, r)
    }
    const sources = [...bySource.values()].sort((
      a,
      b
    ) => (a.published_at < b.published_at ? -1 : a.published_at > b.published_at ? 1 : 0))
    const first = sources[0]!
    const eventDate = mine.find((r) => r.event_date !== undefined)?.event_date
    const keywords = [...new Set(mine.flatMap((r) => r.source_keywords?.split(" ") ?? []))].filter((k) => k !== "")
      .sort()
    return {
      id,
      title: publisherOf(first.url ?? "", first.title).headline,
      symbols: [...new Set(mine.flatMap((r) => (r.symbol !== undefined ? [r.symbol] : [])))].sort(),
      published_at: first.published_at,
      published_at_basis: mine.every((r) => FIRST_SEEN_DATASETS.has(r.dataset))
        ? "first_seen" as const
        : "publisher" as const,
      ...(eventDate !== undefined ? { event_date: eventDate } : {}),
      ...(keywords.length > 0 ? { source_keywords: keywords } : {}),
      republished: sources.length > 1,
      url: first.url ?? "",
      sources: sources.map((s) => ({
        publisher: publisherOf(s.url ?? "", s.title).publisher,
        url: s.url ?? "",
        title: s.title,
        published_at: s.published_at
      })),
      datasets: [...new Set(mine.map((r) => r.dataset))]
    }
  })
  return out.sort((
    a,
    b
  ) => (a.published_at < b.published_at ? 1 : a.published_at > b.published_at ? -1 : a.id < b.id ? 1 : -1))
}
