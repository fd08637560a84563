/**
 * Hourly headline digests as recorded (umarfarooq2044/psx-research-analyst
 * `reports/hourly_news_*.csv`): `Time,Category,Source,Headline,…,URL`, one
 * `Time` per file. That time is when the digest was FETCHED (the author's
 * clock, Pakistan time), not when the story was published: an item's time here
 * is the first digest that lists it, so the story was published no later than
 * that (`published_at_basis: "first_seen"`). The sentiment and impact columns
 * are the author's and are not read; the headline is tagged like any other.
 */
import { karachiInstant } from "../Karachi.ts"
import { csvRecords } from "../psx/Csv.ts"
import { collector, type Parsed } from "../psx/Parsed.ts"
import type { FeedItem } from "./News.ts"

/** The digest header this reader knows; another stops the reader (a changed layout is not guessed at). */
const HEADER = ["Time", "Category", "Source", "Headline", "URL"]

/** One digest file → feed items timed at the digest's fetch (YYYY-MM-DD HH:MM, Karachi). */
export const parseHeadlineDigest = (csv: string, tag: (text: string) => ReadonlyArray<string>): Parsed<FeedItem> => {
  const out = collector<FeedItem>()
  const records = csvRecords(csv)
  if (records.length > 0 && HEADER.some((h) => !(h in records[0]!))) {
    throw new Error(`headline digest: unknown header ${Object.keys(records[0]!).join(",")}`)
  }
  for (const r of records) {
    const url = (r["URL"] ?? "").trim()
    const title = (r["Headline"] ?? "").trim()
    const m = /^(\d{4}-\d{2}-\d{2}) (\d{2}):(\d{2})$/.exec((r["Time"] ?? "").trim())
    if (!/^https?:\/\//.test(url) || title === "" || m === null) {
      out.skip("no address, headline or fetch time")
      continue
    }
    out.rows.push({
      url,
      title,
      publishedAt: new Date(karachiInstant(m[1]!, Number(m[2]), Number(m[3]))).toISOString(),
      symbols: tag(title)
    })
  }
  return out.done()
}
