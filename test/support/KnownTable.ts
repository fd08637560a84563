/**
 * What the market knew at an instant, read from the pack's recordings by
 * their own dates (never from the service): each symbol's last close by
 * then (a close is public from its session's close; a restated eod series
 * only from its recording's retrieval), the payouts announced by then, the
 * newest screener snapshot retrieved by then, the news items published by
 * then. `missingAt` asks the service and lists what it lacks. Also the
 * point-in-time read that asks again while its instant loads (503).
 */
import { assert } from "@effect/vitest"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { gunzipSync } from "node:zlib"
import { pollUntil } from "./Eventually.ts"
import { get as getNow } from "./TestApp.ts"

const pack = join(import.meta.dirname, "../../data/pack")
export const readPack = (file: string): unknown => {
  const bytes = readFileSync(join(pack, file))
  return JSON.parse((file.endsWith(".gz") ? gunzipSync(bytes) : bytes).toString("utf8"))
}

type Columns = { s: string; d: ReadonlyArray<number>; c: ReadonlyArray<number> }
/** A series' recorded closes by date, ascending (`s` the first date, `d` the day steps, `c` the closes). */
const closesOf = (series: Columns | undefined): ReadonlyArray<readonly [string, number]> => {
  if (series === undefined) return []
  let day = Date.parse(`${series.s}T00:00:00Z`)
  return series.d.map((step, i) => {
    day += step * 86_400_000
    return [new Date(day).toISOString().slice(0, 10), series.c[i]!] as const
  })
}
export const eodCloses = (symbol: string): ReadonlyMap<string, number> =>
  new Map(closesOf((readPack("prices_eod.json.gz") as Record<string, Columns>)[symbol]))

/** The instant a session's close is public: 15:30 Karachi (10:30 UTC), 16:30 on Fridays. */
const closeAt = (date: string) =>
  Date.parse(`${date}T00:00:00Z`) + (new Date(`${date}T00:00:00Z`).getUTCDay() === 5 ? 11.5 : 10.5) * 3_600_000
/** A recording retrieved on a date is known from the end of that Karachi day. */
const endOfDay = (date: string) => Date.parse(`${date}T19:00:00Z`)

/** A point-in-time read, asked again while its instant is loading (503 with Retry-After), as a client would. */
export const getAsOf = <P extends string>(path: P) =>
  Effect.gen(function*() {
    const first = yield* getNow(path)
    if (first.status !== 503) return first
    assert.isDefined(first.headers["retry-after"], "a load in progress says when to come back")
    return yield* pollUntil(`${path} loaded`, getNow(path), (r) => r.status !== 503, {
      within: "120 seconds",
      every: "250 millis"
    })
  })

type Get = typeof getAsOf
type Body = Record<string, unknown> & { readonly items?: ReadonlyArray<Record<string, unknown>> }

export const knownTable = (symbols: ReadonlyArray<string>) => {
  const manifest = readPack("manifest.json") as { datasets: ReadonlyArray<{ id: string; recordedAt: string }> }
  const eodRetrieved = endOfDay(manifest.datasets.find((d) => d.id === "prices_eod")!.recordedAt)
  const restated = new Set(
    (readPack("price_disagreements.json") as { disagreements: ReadonlyArray<{ symbol: string }> }).disagreements.map((
      d
    ) => d.symbol)
  )
  const eod = readPack("prices_eod.json.gz") as Record<string, Columns>
  const asTraded = readPack("prices_as_traded.json.gz") as Record<string, Columns>
  type Line = { symbol: string; sectorCode?: string; peTtm?: number }
  const screeners = [
    { known: endOfDay("2026-04-08"), as_of: "2026-04-08", lines: readPack("screener.json.gz") as ReadonlyArray<Line> },
    {
      known: Date.parse("2026-08-04T17:23:38.308Z"),
      as_of: "2026-08-04T17:23:38.308Z",
      lines: readPack("screener_2026_08_04.json.gz") as ReadonlyArray<Line>
    }
  ]
  type Payout = { symbol: string; announcedAt?: string }
  const payouts = [
    ...(readPack("payouts_company_pages_2025_09.json") as ReadonlyArray<Payout>),
    ...(readPack("payouts.json") as ReadonlyArray<Payout>)
  ]
  const news = [
    ...(readPack("news.json.gz") as ReadonlyArray<{ publishedAt: string }>),
    ...(readPack("news_headlines.json.gz") as ReadonlyArray<{ publishedAt: string }>)
  ]
    .map((n) => Date.parse(n.publishedAt))
  const sectorOf = new Map(
    screeners[0]!.lines.flatMap((l) => (l.sectorCode === undefined ? [] : [[l.symbol, l.sectorCode] as const]))
  )
  let checks = 0

  /** The last close public by `at`: as traded, or eod (a restated one only once retrieved). */
  const lastClose = (symbol: string, at: number) => {
    const series = [asTraded[symbol], ...(restated.has(symbol) && eodRetrieved > at ? [] : [eod[symbol]])]
    return series.flatMap((s) => closesOf(s).filter(([d]) => closeAt(d) <= at).slice(-1)).map(([d]) => d).sort().at(-1)
  }

  /** What the service lacks at `at` of what the recordings prove known. */
  const missingAt = (text: string, at: number, get: Get) =>
    Effect.gen(function*() {
      const out: Array<string> = []
      const q = `as_of=${encodeURIComponent(text)}`
      const published = news.filter((n) => n <= at).length
      const feed = (yield* get(`/v1/news?${q}&limit=1` as "/v1/news")).body as Body
      checks++
      if (published > 0 && feed["total"] !== published) {
        out.push(`${text} news: ${String(feed["total"])} items, ${published} published`)
      }
      for (const symbol of symbols) {
        const close = lastClose(symbol, at)
        if (close !== undefined) {
          checks++
          const quote = (yield* get(`/v1/quotes/${symbol}?allow_stale=true&${q}` as "/v1/news")).body as Body
          const day = typeof quote["as_of"] === "string" ? quote["as_of"].slice(0, 10) : undefined
          // A close the service refuses as unverified (409 DATA_UNVERIFIED, outside the price limits) is said, not missing.
          const said = quote["error"] === "DATA_UNVERIFIED"
          if (!said && (day === undefined || day < close)) {
            out.push(`${text} ${symbol} quote: ${day ?? "none"}, recorded close ${close}`)
          }
        }
        const announced = payouts.filter((p) =>
          p.symbol === symbol && p.announcedAt !== undefined && Date.parse(p.announcedAt) <= at
        )
        if (announced.length > 0) {
          const listed = (yield* get(`/v1/dividends/${symbol}?${q}` as "/v1/news")).body as Body
          const held = new Set((listed.items ?? []).map((i) => i["announced_at"]))
          for (const p of announced) {
            checks++
            if (!held.has(p.announcedAt)) out.push(`${text} ${symbol} payout announced ${p.announcedAt} missing`)
          }
        }
        const snapshot = screeners.filter((s) => s.known <= at).at(-1)
        const line = snapshot?.lines.find((l) => l.symbol === symbol)
        if (snapshot !== undefined && line?.peTtm !== undefined && line.peTtm > 0) {
          checks++
          const stock = (yield* get(`/v1/stocks/${symbol}?${q}` as "/v1/news")).body as Body
          const ratios = stock["ratios"] as Record<string, unknown> | undefined
          if (ratios?.["pe_ttm"] !== line.peTtm || ratios["as_of"] !== snapshot.as_of) {
            out.push(
              `${text} ${symbol} P/E: ${String(ratios?.["pe_ttm"])} as of ${
                String(ratios?.["as_of"])
              }, recorded ${line.peTtm} (${snapshot.as_of})`
            )
          }
        }
      }
      return out
    })
  return { sectorOf, missingAt, checks: () => checks }
}
