/**
 * Publishers' RSS 2.0 and Atom feeds → feed items, tagged with the companies
 * a story names. Pure: the text of a feed in, items out (src/sources/NewsFeeds.ts
 * fetches). A feed's own time (`pubDate`, `published`, `updated`) is the
 * publisher's; an item without one is left out, never stamped with the time
 * it was read.
 */
import { ElementType, parseDocument } from "htmlparser2"
import { textOf } from "../psx/Html.ts"
import { collector, type Parsed } from "../psx/Parsed.ts"
import type { FeedItem } from "./News.ts"

/** A feed item with the text the tagger reads (title and description). */
export interface RssItem {
  readonly url: string
  readonly title: string
  readonly publishedAt: string
  readonly summary: string
}

type Document = ReturnType<typeof parseDocument>
type Node = Document["children"][number]
type Element = Extract<Node, { readonly attribs: unknown }>

const isElement = (node: Node): node is Element => ElementType.isTag(node)

/** A feed read as XML (htmlparser2's forgiving XML mode: XML's entities decoded, CDATA kept as text). */
const parseXml = (xml: string) => parseDocument(xml, { xmlMode: true, decodeEntities: true })

/** The character data of nodes, CDATA included, each child element read as a space. */
const xmlText = (nodes: ReadonlyArray<Node>): string => {
  let out = ""
  for (const n of nodes) {
    if (n.type === ElementType.Text) out += n.data
    else if (n.type === ElementType.CDATA) out += xmlText(n.children)
    else if (isElement(n)) out += ` ${xmlText(n.children)} `
  }
  return out
}

/** Every element under `node` in document order. */
const descendants = (node: Document | Element): Array<Element> =>
  node.children.filter(isElement).flatMap((e) => [e, ...descendants(e)])

/**
 * An element's character data as plain text: a feed's title or description often carries HTML (escaped, or in a
 * CDATA section), read with the HTML reader (domain/psx/Html.ts): tags as spaces, HTML's entities decoded.
 */
const plainTextOf = (nodes: ReadonlyArray<Node>): string => textOf(xmlText(nodes))

/** Character data with CDATA sections, entities and tags resolved into plain text. */
export const plainText = (raw: string): string => plainTextOf(parseXml(raw).children)

/** The lower-cased name, so `pubDate` and `pubdate` are one field (namespaced names such as `dc:date` included). */
const named = (tag: string) => (e: Element) => e.name.toLowerCase() === tag.toLowerCase()

/** The text of the first `<tag>` inside `item`. */
const field = (item: ReadonlyArray<Element>, tag: string): string | undefined => {
  const found = item.find(named(tag))
  return found ? plainTextOf(found.children) : undefined
}

/** An Atom link: the `href` of the alternate (or first) `<link>`. */
const atomLink = (item: ReadonlyArray<Element>): string | undefined => {
  const links = item.filter(named("link"))
  const pick = links.find((l) => l.attribs["rel"]?.toLowerCase() === "alternate") ??
    links.find((l) => l.attribs["rel"] === undefined) ?? links[0]
  return pick?.attribs["href"]
}

/** A feed date (RFC 822 as RSS writes it, or ISO 8601 as Atom does) → ISO UTC, when it names its zone. */
export const feedTime = (raw: string | undefined): string | undefined => {
  if (raw === undefined) return undefined
  const text = raw.trim()
  const zoned = /(?:[+-]\d{2}:?\d{2}|Z|GMT|UTC|UT)$/i.test(text)
  const ms = Date.parse(text.replace(/\bUT$/i, "UTC"))
  return zoned && Number.isFinite(ms) ? new Date(ms).toISOString() : undefined
}

const itemOf = (element: Element, isAtom: boolean): RssItem | string => {
  const item = descendants(element)
  const title = field(item, "title") ?? ""
  const url = (isAtom ? atomLink(item) : field(item, "link") ?? field(item, "guid"))?.trim() ?? ""
  const publishedAt = feedTime(
    isAtom ? field(item, "published") ?? field(item, "updated") : field(item, "pubDate") ?? field(item, "dc:date")
  )
  if (title === "") return "no title"
  if (!/^https?:\/\//i.test(url)) return "no address"
  if (publishedAt === undefined) return "no publication time with its zone"
  const summary = field(item, isAtom ? "summary" : "description") ?? field(item, "content") ?? ""
  return { url, title, publishedAt, summary: summary.slice(0, 400) }
}

/** Every `<item>` (RSS, RDF) or `<entry>` (Atom) of a feed; what cannot be read is counted, not guessed. */
export const parseFeed = (xml: string): Parsed<RssItem> => {
  const out = collector<RssItem>()
  const all = descendants(parseXml(xml))
  const isAtom = !all.some((e) => named("rss")(e) || named("rdf:RDF")(e)) && all.some(named("feed"))
  for (const element of all.filter(named(isAtom ? "entry" : "item"))) {
    const item = itemOf(element, isAtom)
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
export const feedItemsOf = (
  items: ReadonlyArray<RssItem>,
  tag: (text: string) => ReadonlyArray<string>
): ReadonlyArray<FeedItem> =>
  items.map((it) => ({
    url: it.url,
    title: it.title,
    publishedAt: it.publishedAt,
    ...(it.summary !== "" ? { summary: it.summary } : {}),
    symbols: tag(`${it.title}\n${it.summary}`)
  }))
