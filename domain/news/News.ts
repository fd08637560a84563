/**
 * News from publishers' feeds, as events. A feed item is one publisher's
 * copy of a story (address, title, the publisher's own time); an event is
 * one story, with every copy of it as a source (`newsEvents`).
 */
import { collector, type Parsed } from "../psx/Parsed.ts"

export const EVENT_WINDOW_HOURS = 72
export const SAME_PUBLISHER_WINDOW_HOURS = 12

export interface FeedItem {
  readonly url: string
  /** The headline as the feed carries it (a Google News title ends in " - <publisher>"). */
  readonly title: string
  /** The publisher's time, ISO 8601 UTC. */
  readonly publishedAt: string
  /** The feed's description, when it has one. */
  readonly summary?: string
  /** The companies the item names (domain/news/Tagger.ts). */
  readonly symbols: ReadonlyArray<string>
  /** Words a recording's author searched for to find the item: kept apart, never tags. */
  readonly keywords?: ReadonlyArray<string>
}

export interface NewsSource {
  readonly publisher: string
  readonly url: string
  readonly title: string
  readonly publishedAt: string
}

export interface NewsEvent {
  readonly id: string
  readonly title: string
  /** The first publication's time. */
  readonly publishedAt: string
  readonly symbols: ReadonlyArray<string>
  /** The recording's own keywords for the event's sources (not tags); absent when none. */
  readonly sourceKeywords?: ReadonlyArray<string>
  /** In order of publication; the first is the original. */
  readonly sources: ReadonlyArray<NewsSource>
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v)
const str = (v: unknown) => (typeof v === "string" ? v.trim() : "")

const publishers: ReadonlyArray<readonly [RegExp, string]> = [
  [/(^|\.)brecorder\.com$/, "Business Recorder"],
  [/(^|\.)dawn\.com$/, "Dawn"],
  [/(^|\.)mettisglobal\.news$/, "Mettis Global"],
  [/(^|\.)profit\.pakistantoday\.com\.pk$/, "Profit by Pakistan Today"]
]

/**
 * A source's publisher and its headline without the publisher: from the
 * address's host, or for a Google News address from the " - <publisher>"
 * its title ends in.
 */
export const publisherOf = (url: string, title: string): { readonly publisher: string; readonly headline: string } => {
  const host = /^https?:\/\/([^/?#]+)/i.exec(url)?.[1]?.toLowerCase() ?? ""
  const known = publishers.find(([re]) => re.test(host))
  if (known) return { publisher: known[1], headline: title }
  const m = host === "news.google.com" ? /^([\s\S]*\S)\s+-\s+([^-]+)$/.exec(title) : null
  return m ? { publisher: m[2]!.trim(), headline: m[1]! } : { publisher: host, headline: title }
}

/**
 * One recorded feed file: `{items: [{symbol, title, url, published, summary, source}]}`
 * with `published` an ISO time with its offset. `symbol` is the author's
 * search keyword (`_macro` for none): kept as a keyword, never as a tag; the
 * tagger reads the title and summary.
 */
export const parseFeedFile = (json: unknown, tag: (text: string) => ReadonlyArray<string>): Parsed<FeedItem> => {
  const out = collector<FeedItem>()
  const items = isRecord(json) && Array.isArray(json["items"]) ? json["items"] : []
  for (const item of items) {
    if (!isRecord(item)) {
      out.skip("not an item")
      continue
    }
    const url = str(item["url"])
    const at = Date.parse(str(item["published"]))
    const raw = str(item["title"])
    if (
      !/^https?:\/\//.test(url) || raw === "" || !/[+-]\d{2}:\d{2}$|Z$/.test(str(item["published"])) ||
      !Number.isFinite(at)
    ) {
      out.skip("no address, title or published time with its offset")
      continue
    }
    const keyword = str(item["symbol"]).toUpperCase()
    const summary = str(item["summary"])
    out.rows.push({
      url,
      title: raw,
      publishedAt: new Date(at).toISOString(),
      symbols: tag(`${raw}\n${summary}`),
      ...(summary !== "" ? { summary } : {}),
      ...(/^[A-Z0-9][A-Z0-9.\-]{0,15}$/.test(keyword) ? { keywords: [keyword] } : {})
    })
  }
  return out.done()
}

const titleKey = (title: string) => title.toLowerCase().replace(/[^a-z0-9]+/g, " ").trim()

const eventId = (key: string, publishedAt: string) => {
  let h = 0x811c9dc5
  for (const ch of `${key}|${publishedAt}`) {
    h ^= ch.codePointAt(0)!
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return `news-${h.toString(16).padStart(8, "0")}`
}

/** A source's own text: its summary, unless that only repeats the headline (a Google News description). */
const textKey = (headline: string, summary: string | undefined): string | undefined => {
  const text = titleKey((summary ?? "").replace(/&nbsp;/g, " "))
  const head = titleKey(headline)
  return text === "" || text.startsWith(head) || head.startsWith(text) ? undefined : text.slice(0, 200)
}

interface Open {
  readonly key: string
  readonly headline: string
  readonly sources: Array<NewsSource>
  readonly texts: Set<string>
  readonly symbols: Set<string>
  readonly keywords: Set<string>
}

/** Whether a source with this text, publisher and time is the event's story republished (see the module's comment). */
const joins = (e: Open, text: string | undefined, publisher: string, at: number) => {
  if (at - Date.parse(e.sources[0]!.publishedAt) > EVENT_WINDOW_HOURS * 3_600_000) return false
  if (text !== undefined && e.texts.size > 0 && !e.texts.has(text)) return false
  const last = e.sources.filter((s) => s.publisher === publisher).pop()
  return last === undefined || at - Date.parse(last.publishedAt) <= SAME_PUBLISHER_WINDOW_HOURS * 3_600_000
}

/** One address is one source: its earliest publication time, its first title, every tag and keyword it was read with. */
const byAddress = (items: ReadonlyArray<FeedItem>) => {
  const byUrl = new Map<string, { item: FeedItem; symbols: Set<string>; keywords: Set<string> }>()
  for (const it of items) {
    const seen = byUrl.get(it.url)
    if (seen === undefined) {
      byUrl.set(it.url, { item: it, symbols: new Set(it.symbols), keywords: new Set(it.keywords) })
    } else {
      for (const s of it.symbols) seen.symbols.add(s)
      for (const k of it.keywords ?? []) seen.keywords.add(k)
      if (it.publishedAt < seen.item.publishedAt) {
        const summary = seen.item.summary ?? it.summary
        seen.item = { ...it, title: seen.item.title, ...(summary !== undefined ? { summary } : {}) }
      }
    }
  }
  return [...byUrl.values()].sort((a, b) =>
    a.item.publishedAt < b.item.publishedAt
      ? -1
      : a.item.publishedAt > b.item.publishedAt
      ? 1
      : a.item.url < b.item.url
      ? -1
      : 1
  )
}

/**
 * Feed items (from any number of overlapping fetches) → events, newest
 * first. One address is one source; a source joins the open event of its
 * headline when it is the same story (`joins`), else starts a new event.
 *
 * The same story from two outlets, or the same story republished (a Google News copy of a
 * Business Recorder article, a re-issued item), is one event with several
 * sources. A source joins an event when it is the same story: the same
 * address, or the same headline (publisher suffix, case and punctuation
 * ignored) and the same text within the window: EVENT_WINDOW_HOURS of the
 * event's first publication, and SAME_PUBLISHER_WINDOW_HOURS of that
 * publisher's latest copy when the publisher already carried it (Google News
 * lists one article under two addresses minutes apart; a daily column such as
 * "MG Morning Breeze" keeps its headline every day, and each day's edition is
 * its own story). The text is the summary; a summary that only repeats the
 * headline (Google News) is no text, and two texts that differ are two stories.
 * A recurring headline days apart ("Thai baht/US dollar stronger on Monday")
 * is a new event.
 *
 * `publishedAt` is always the publisher's time. An event's date (when the
 * thing happened) is not in any feed, so it is never set here.
 */
export const newsEvents = (items: ReadonlyArray<FeedItem>): ReadonlyArray<NewsEvent> => {
  const open = new Map<string, Open>()
  const events: Array<Open> = []
  for (const { item, symbols, keywords } of byAddress(items)) {
    const { publisher, headline } = publisherOf(item.url, item.title)
    const key = titleKey(headline)
    const text = textKey(headline, item.summary)
    const current = open.get(key)
    const source = { publisher, url: item.url, title: item.title, publishedAt: item.publishedAt }
    const event = current !== undefined && joins(current, text, publisher, Date.parse(item.publishedAt))
      ? current
      : {
        key,
        headline,
        sources: [],
        texts: new Set<string>(),
        symbols: new Set<string>(),
        keywords: new Set<string>()
      }
    if (event !== current) {
      open.set(key, event)
      events.push(event)
    }
    event.sources.push(source)
    if (text !== undefined) event.texts.add(text)
    for (const s of symbols) event.symbols.add(s)
    for (const k of keywords) event.keywords.add(k)
  }
  return events.reverse().map((e) => ({
    id: eventId(e.key, e.sources[0]!.publishedAt),
    title: e.headline,
    publishedAt: e.sources[0]!.publishedAt,
    symbols: [...e.symbols].sort(),
    ...(e.keywords.size > 0 ? { sourceKeywords: [...e.keywords].sort() } : {}),
    sources: e.sources
  }))
}
