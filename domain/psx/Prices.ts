/**
 * Parsers for daily prices: `POST /historical` (OHLCV table), `GET
 * /timeseries/eod/{SYM}` (JSON, close + volume + open, newest first),
 * `/market-watch` (the delayed board) and `/timeseries/int` (intraday ticks).
 * The recorded CSV files are read by their header in PriceCsv.ts.
 */
import { cellNumber, tables } from "./Html.ts"
import { collector, defined, type Parsed } from "./Parsed.ts"
import { karachiDateOfEpoch, parseDate, parseNumber, positive } from "./Values.ts"

export interface PriceRow {
  readonly date: string
  readonly open?: number
  readonly high?: number
  readonly low?: number
  readonly close: number
  readonly volume?: number
}

const validRow = (r: PriceRow) =>
  r.close > 0 &&
  (r.high === undefined || r.low === undefined || r.high >= r.low) &&
  (r.volume === undefined || r.volume >= 0)

/** Keeps a row once per date and only when consistent; counts what it leaves out. */
export const dailyRows = () => {
  const out = collector<PriceRow>()
  const seen = new Set<string>()
  const add = (r: PriceRow) => {
    if (seen.has(r.date)) return out.skip("duplicate date")
    seen.add(r.date)
    if (!validRow(r)) return out.skip("inconsistent row")
    out.rows.push(r)
  }
  return {
    ...out,
    add,
    /** A day read from a source: skipped when its date or its close cannot be read; absent figures are left out. */
    day: (
      date: string | undefined,
      close: number | undefined,
      figures: Partial<Record<"open" | "high" | "low" | "volume", number | undefined>>
    ) => {
      if (date === undefined) return out.skip("unreadable date")
      if (close === undefined) return out.skip("unreadable close")
      add({ date, close, ...defined(figures) })
    }
  }
}

/** `POST /historical`: DATE (text, or `data-order` epoch), OPEN, HIGH, LOW, CLOSE, VOLUME. */
export const parseHistorical = (html: string): Parsed<PriceRow> => {
  const out = dailyRows()
  const table = tables(html).find((t) => t.headers.some((h) => h.attrs["data-name"] === "close"))
  if (!table) return out.done()
  const at = (name: string) => table.headers.findIndex((h) => h.attrs["data-name"] === name)
  const i = {
    time: at("time"),
    open: at("open"),
    high: at("high"),
    low: at("low"),
    close: at("close"),
    volume: at("volume")
  }
  for (const row of table.rows) {
    const dc = row[i.time]
    const epoch = Number(dc?.attrs["data-order"])
    const date = dc?.attrs["data-order"] && Number.isFinite(epoch) ? karachiDateOfEpoch(epoch) : parseDate(dc?.text)
    out.day(date, parseNumber(cellNumber(row[i.close])), {
      open: positive(parseNumber(cellNumber(row[i.open]))),
      high: positive(parseNumber(cellNumber(row[i.high]))),
      low: positive(parseNumber(cellNumber(row[i.low]))),
      volume: parseNumber(cellNumber(row[i.volume]))
    })
  }
  return out.done()
}

/** The `data` member of a portal JSON answer, if it has one. */
const dataOf = (json: unknown): unknown =>
  typeof json === "object" && json !== null && "data" in json ? json.data : undefined

/**
 * `GET /timeseries/eod/{SYM}`: `{status, message, data: [[epoch, close, volume, open], …]}`.
 * An unknown symbol answers an empty `data`: that is "no rows", and the
 * caller must treat it as unknown, not as a price history of nothing.
 */
export const parseEod = (json: unknown): Parsed<PriceRow> => {
  const out = dailyRows()
  const data = dataOf(json)
  if (!Array.isArray(data)) return out.done()
  for (const item of data) {
    if (!Array.isArray(item) || typeof item[0] !== "number") {
      out.skip("bad tuple")
      continue
    }
    out.day(
      karachiDateOfEpoch(item[0]),
      typeof item[1] === "number" && Number.isFinite(item[1]) ? item[1] : undefined,
      {
        volume: typeof item[2] === "number" ? item[2] : undefined,
        open: typeof item[3] === "number" && item[3] > 0 ? item[3] : undefined
      }
    )
  }
  return out.done()
}

export interface BoardRow {
  readonly symbol: string
  readonly name?: string
  readonly sectorCode?: string
  readonly listedIn: ReadonlyArray<string>
  readonly ldcp?: number
  readonly open?: number
  readonly high?: number
  readonly low?: number
  readonly current?: number
  readonly change?: number
  readonly changePct?: number
  readonly volume?: number
}

/** `/market-watch`: columns found by their `data-name`; a price of 0 (no trade yet) is absent, a volume of 0 is kept. */
export const parseMarketWatch = (html: string): Parsed<BoardRow> => {
  const out = collector<BoardRow>()
  const table = tables(html)[0]
  if (!table) return out.done()
  const at = (name: string) => table.headers.findIndex((h) => h.attrs["data-name"] === name)
  for (const row of table.rows) {
    const sc = row[at("symbol")]
    const symbol = (sc?.attrs["data-order"] ?? sc?.text ?? "").trim().toUpperCase()
    if (symbol === "") {
      out.skip("bad symbol")
      continue
    }
    const n = (name: string) => (at(name) < 0 ? undefined : parseNumber(cellNumber(row[at(name)])))
    out.rows.push({
      symbol,
      listedIn: (row[at("listed")]?.text ?? "").split(",").map((s) => s.trim()).filter((s) => s !== ""),
      ...defined({
        name: sc?.inner["data-title"],
        sectorCode: row[at("sector")]?.text || undefined,
        ldcp: positive(n("ldcp")),
        open: positive(n("open")),
        high: positive(n("high")),
        low: positive(n("low")),
        current: positive(n("close")),
        change: n("change"),
        changePct: n("percentChange"),
        volume: n("volume")
      })
    })
  }
  return out.done()
}

export interface IntradayTick {
  /** Instant, ISO 8601 UTC. */
  readonly at: string
  readonly price: number
  readonly volume?: number
}

/** `GET /timeseries/int/{SYM}`: `{status, message, data: [[epoch, price, volume], …]}` newest first: today's ticks. */
export const parseIntraday = (json: unknown): Parsed<IntradayTick> => {
  const out = collector<IntradayTick>()
  const data = dataOf(json)
  if (!Array.isArray(data)) return out.done()
  for (const item of data) {
    if (!Array.isArray(item) || typeof item[0] !== "number" || typeof item[1] !== "number" || !(item[1] > 0)) {
      out.skip("bad tick")
      continue
    }
    out.rows.push({
      at: new Date(item[0] * 1000).toISOString(),
      price: item[1],
      ...(typeof item[2] === "number" && item[2] >= 0 ? { volume: item[2] } : {})
    })
  }
  return out.done()
}
