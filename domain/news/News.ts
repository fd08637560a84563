/**
 * News from publishers' feeds, as events. A feed item is one publisher's
 * copy of a story (address, title, the publisher's own time). The same story
 * from two outlets, or the same story republished (a Google News copy of a
 * Business Recorder article, a re-issued item), is one event with several
 * sources: items whose titles match (publisher suffix, case and punctuation
 * ignored) within EVENT_WINDOW_HOURS of the event's first publication. A
 * recurring headline days apart ("Thai baht/US dollar stronger on Monday")
 * is a new event.
 *
 * `publishedAt` is always the publisher's time. An event's date (when the
 * thing happened) is not in any feed, so it is never set here.
 */
import { collector, type Parsed } from "../psx/Parsed.ts"

export const EVENT_WINDOW_HOURS = 72

export interface FeedItem {
  readonly url: string
  /** The headline as the feed carries it (a Google News title ends in " - <publisher>"). */
  readonly title: string
  /** The publisher's time, ISO 8601 UTC. */
  readonly publishedAt: string
  /** A ticker the recording's author attached by keyword (not an exchange field); absent for market-wide items. */
  readonly symbol?: string
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
 * with `published` an ISO time with its offset. `_macro` means no symbol.
 */
export const parseFeedFile = (json: unknown): Parsed<FeedItem> => {
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
    if (!/^https?:\/\//.test(url) || raw === "" || !/[+-]\d{2}:\d{2}$|Z$/.test(str(item["published"])) || !Number.isFinite(at)) {
      out.skip("no address, title or published time with its offset")
      continue
    }
    const symbol = str(item["symbol"]).toUpperCase()
    out.rows.push({
      url,
      title: raw,
      publishedAt: new Date(at).toISOString(),
      ...(/^[A-Z0-9][A-Z0-9.\-]{0,15}$/.test(symbol) ? { symbol } : {})
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

/**
 * Feed items (from any number of overlapping fetches) → events, newest
 * first. One address is one source (its earliest publication time, every
 * symbol it was tagged with); matching titles within the window join one event.
 */
export const newsEvents = (items: ReadonlyArray<FeedItem>): ReadonlyArray<NewsEvent> => {
  const byUrl = new Map<string, { item: FeedItem; symbols: Set<string> }>()
  for (const it of items) {
    const seen = byUrl.get(it.url)
    if (seen === undefined) byUrl.set(it.url, { item: it, symbols: new Set(it.symbol ? [it.symbol] : []) })
    else {
      if (it.symbol) seen.symbols.add(it.symbol)
      if (it.publishedAt < seen.item.publishedAt) seen.item = { ...it, title: seen.item.title }
    }
  }
  const sources = [...byUrl.values()].sort((a, b) =>
    a.item.publishedAt < b.item.publishedAt ? -1 : a.item.publishedAt > b.item.publishedAt ? 1 : a.item.url < b.item.url ? -1 : 1
  )
  const open = new Map<string, { key: string; headline: string; sources: Array<NewsSource>; symbols: Set<string> }>()
  const events: Array<{ key: string; headline: string; sources: Array<NewsSource>; symbols: Set<string> }> = []
  const window = EVENT_WINDOW_HOURS * 3_600_000
  for (const { item, symbols } of sources) {
    const { publisher, headline } = publisherOf(item.url, item.title)
    const key = titleKey(headline)
    const current = open.get(key)
    const source = { publisher, url: item.url, title: item.title, publishedAt: item.publishedAt }
    if (current !== undefined && Date.parse(item.publishedAt) - Date.parse(current.sources[0]!.publishedAt) <= window) {
      current.sources.push(source)
      for (const s of symbols) current.symbols.add(s)
      continue
    }
    const event = { key, headline, sources: [source], symbols: new Set(symbols) }
    open.set(key, event)
    events.push(event)
  }
  return events.reverse().map((e) => ({
    id: eventId(e.key, e.sources[0]!.publishedAt),
    title: e.headline,
    publishedAt: e.sources[0]!.publishedAt,
    symbols: [...e.symbols].sort(),
    sources: e.sources
  }))
}
