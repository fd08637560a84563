/**
 * Publishers' RSS 2.0 and Atom feeds → feed items, tagged with the companies
 * a story names. Pure: the text of a feed in, items out (src/sources/NewsFeeds.ts
 * fetches). A feed's own time (`pubDate`, `published`, `updated`) is the
 * publisher's; an item without one is left out, never stamped with the time
 * it was read.
 */
import type { FeedItem } from "./News.ts"
import { collector, type Parsed } from "../psx/Parsed.ts"

/** A feed item with the text the tagger reads (title and description). */
export interface RssItem {
  readonly url: string
  readonly title: string
  readonly publishedAt: string
  readonly summary: string
}

const entities: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: "\"", apos: "'", nbsp: " " }

/** Character data with CDATA sections, entities and tags resolved into plain text. */
export const plainText = (raw: string): string =>
  raw
    .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, (_, body: string) => body.replace(/&/g, "&amp;").replace(/</g, "&lt;"))
    .replace(/<[^>]*>/g, " ")
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name[0] !== "#") return entities[name.toLowerCase()] ?? whole
      const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10)
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : whole
    })
    .replace(/<[^>]*>/g, " ")
    .replace(/\s+/g, " ")
    .trim()

/** The text of the first `<tag>` inside `block` (namespaced tags such as `dc:date` included). */
const field = (block: string, tag: string): string | undefined => {
  const m = new RegExp(`<${tag}(?:\\s[^>]*)?>([\\s\\S]*?)</${tag}>`, "i").exec(block)
  return m ? plainText(m[1]!) : undefined
}

/** An Atom link: the `href` of the alternate (or first) `<link>`. */
const atomLink = (block: string): string | undefined => {
  const links = [...block.matchAll(/<link\b([^>]*)\/?>/gi)].map((m) => m[1]!)
  const pick = links.find((a) => /rel\s*=\s*["']alternate["']/i.test(a)) ?? links.find((a) => !/rel\s*=/i.test(a)) ?? links[0]
  return pick ? /href\s*=\s*["']([^"']+)["']/i.exec(pick)?.[1]?.replace(/&amp;/g, "&") : undefined
}

/** A feed date (RFC 822 as RSS writes it, or ISO 8601 as Atom does) → ISO UTC, when it names its zone. */
export const feedTime = (raw: string | undefined): string | undefined => {
  if (raw === undefined) return undefined
  const text = raw.trim()
  const zoned = /(?:[+-]\d{2}:?\d{2}|Z|GMT|UTC|UT)$/i.test(text)
  const ms = Date.parse(text.replace(/\bUT$/i, "UTC"))
  return zoned && Number.isFinite(ms) ? new Date(ms).toISOString() : undefined
}

const itemOf = (block: string, isAtom: boolean): RssItem | string => {
  const title = field(block, "title") ?? ""
  const url = (isAtom ? atomLink(block) : field(block, "link") ?? field(block, "guid"))?.trim() ?? ""
  const publishedAt = feedTime(isAtom ? field(block, "published") ?? field(block, "updated") : field(block, "pubDate") ?? field(block, "dc:date"))
  if (title === "") return "no title"
  if (!/^https?:\/\//i.test(url)) return "no address"
  if (publishedAt === undefined) return "no publication time with its zone"
  const summary = field(block, isAtom ? "summary" : "description") ?? field(block, "content") ?? ""
  return { url, title, publishedAt, summary: summary.slice(0, 400) }
}

/** Every `<item>` (RSS) or `<entry>` (Atom) of a feed; what cannot be read is counted, not guessed. */
export const parseFeed = (xml: string): Parsed<RssItem> => {
  const out = collector<RssItem>()
  const isAtom = !/<rss[\s>]|<rdf:RDF[\s>]/i.test(xml) && /<feed[\s>]/i.test(xml)
  const tag = isAtom ? "entry" : "item"
  for (const m of xml.matchAll(new RegExp(`<${tag}(?:\\s[^>]*)?>([\\s\\S]*?)</${tag}>`, "gi"))) {
    const item = itemOf(m[1]!, isAtom)
    if (typeof item === "string") out.skip(item)
    else out.rows.push(item)
  }
  return out.done()
}

/**
 * Feed items as the news model takes them, tagged by what their headline and
 * summary name (the tagger of domain/news/Tagger.ts, the same for recorded
 * and live news).
 */
export const feedItemsOf = (items: ReadonlyArray<RssItem>, tag: (text: string) => ReadonlyArray<string>): ReadonlyArray<FeedItem> =>
  items.map((it) => ({
    url: it.url,
    title: it.title,
    publishedAt: it.publishedAt,
    ...(it.summary !== "" ? { summary: it.summary } : {}),
    symbols: tag(`${it.title} ${it.summary}`)
  }))
