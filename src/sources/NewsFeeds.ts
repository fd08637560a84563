/**
 * The live news adapter: publishers' RSS and Atom feeds (PSX_NEWS_FEEDS, a
 * comma-separated list of addresses). Read by the crawler's leader with the
 * portal's manners: one request at a time, spaced, a timeout and retries on
 * transport faults and 5xx. A feed that cannot be fetched, or holds no item,
 * is SOURCE_UNAVAILABLE, never an empty success. The items, headlines and
 * summaries are the publishers'; the service stores headline, address and
 * the publisher's time only.
 */
import { Config, Context, Duration, Effect, Layer } from "effect"
import { FetchHttpClient, HttpClient, HttpClientRequest } from "effect/http"
import { SourceUnavailable } from "../../domain/Errors.ts"
import { parseFeed, type RssItem } from "../../domain/news/Rss.ts"
import type { Parsed } from "../../domain/psx/Parsed.ts"
import { makePoliteFetch } from "./PoliteFetch.ts"

/**
 * The default feeds: the business pages of the two publishers the recorded
 * news came from, and a Google News search for the exchange. Their addresses
 * could not be checked from the machine this was built on; set PSX_NEWS_FEEDS
 * to replace them, or to an empty string to read no news.
 */
export const DEFAULT_FEEDS = [
  "https://www.brecorder.com/feeds/latest-news",
  "https://www.dawn.com/feeds/business",
  "https://news.google.com/rss/search?q=%22Pakistan+Stock+Exchange%22&hl=en-PK&gl=PK&ceid=PK:en"
]

export const newsFeedsConfig = Config.all({
  feeds: Config.String("PSX_NEWS_FEEDS").pipe(
    Config.map((s) => s.split(",").map((f) => f.trim()).filter((f) => /^https?:\/\//.test(f))),
    Config.withDefault(DEFAULT_FEEDS)
  ),
  minIntervalMs: Config.Int("PSX_NEWS_MIN_INTERVAL_MS").pipe(Config.withDefault(1_000)),
  timeout: Config.Duration("PSX_NEWS_TIMEOUT").pipe(Config.withDefault(Duration.seconds(15))),
  retries: Config.Int("PSX_NEWS_RETRIES").pipe(Config.withDefault(2)),
  userAgent: Config.String("PSX_PORTAL_USER_AGENT").pipe(
    Config.withDefault("psx-data-service/1.0 (research data service; reads news feeds every 30 minutes)")
  )
})
export type NewsFeedsOptions = typeof newsFeedsConfig extends Config.Config<infer A> ? A : never

export class NewsFeeds extends Context.Service<NewsFeeds, {
  /** The configured feed addresses. */
  readonly feeds: ReadonlyArray<string>
  /** One feed's items. */
  readonly read: (url: string) => Effect.Effect<Parsed<RssItem>, SourceUnavailable>
}>()("psx/sources/NewsFeeds") {
  static readonly make = Effect.fn("NewsFeeds.make")(function*(options: NewsFeedsOptions) {
    const client = (yield* HttpClient.HttpClient).pipe(
      HttpClient.mapRequest(HttpClientRequest.setHeaders({
        "user-agent": options.userAgent,
        accept: "application/rss+xml, application/atom+xml, application/xml, text/xml"
      })),
      HttpClient.filterStatusOk
    )
    const fetchText = yield* makePoliteFetch(client, options, "news feed")

    const read = Effect.fn("NewsFeeds.read")(function*(url: string) {
      const parsed = parseFeed(yield* fetchText(url, HttpClientRequest.get(url)))
      if (parsed.rows.length === 0) {
        return yield* new SourceUnavailable({
          message: `news feed ${url} held no item (not a feed, or a changed format)`
        })
      }
      return parsed
    })
    return NewsFeeds.of({ feeds: options.feeds, read })
  })

  /** The adapter with its configuration and a fetch-based HTTP client. */
  static readonly layer = Layer.effect(NewsFeeds, Effect.flatMap(newsFeedsConfig, NewsFeeds.make)).pipe(
    Layer.provide(FetchHttpClient.layer)
  )
}
