/**
 * Parsers for daily prices: `POST /historical` (OHLCV table), `GET
 * /timeseries/eod/{SYM}` (JSON, close + volume + open, newest first),
 * `/market-watch` (the delayed board), the daily market-summary file, and
 * the two recorded CSV layouts in the bundled pack.
 */
import { cellNumber, tables } from "./Html.ts"
import { collector, defined, type Parsed } from "./Parsed.ts"
import { karachiDateOfEpoch, parseDate, parseNumber } from "./Values.ts"

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
const dailyRows = () => {
  const out = collector<PriceRow>()
  const seen = new Set<string>()
  return {
    ...out,
    add: (r: PriceRow) => {
      if (seen.has(r.date)) return out.skip("duplicate date")
      seen.add(r.date)
      if (!validRow(r)) return out.skip("inconsistent row")
      out.rows.push(r)
    }
  }
}

/** `POST /historical`: DATE (text, or `data-order` epoch), OPEN, HIGH, LOW, CLOSE, VOLUME. */
export const parseHistorical = (html: string): Parsed<PriceRow> => {
  const out = dailyRows()
  const table = tables(html).find((t) => t.headers.some((h) => h.attrs["data-name"] === "close"))
  if (!table) return out.done()
  const at = (name: string) => table.headers.findIndex((h) => h.attrs["data-name"] === name)
  const i = { time: at("time"), open: at("open"), high: at("high"), low: at("low"), close: at("close"), volume: at("volume") }
  for (const row of table.rows) {
    const dc = row[i.time]
    const epoch = Number(dc?.attrs["data-order"])
    const date = dc?.attrs["data-order"] && Number.isFinite(epoch) ? karachiDateOfEpoch(epoch) : parseDate(dc?.text)
    const close = parseNumber(cellNumber(row[i.close]))
    if (date === undefined) {
      out.skip("unreadable date")
      continue
    }
    if (close === undefined) {
      out.skip("unreadable close")
      continue
    }
    out.add({
      date,
      close,
      ...defined({
        open: parseNumber(cellNumber(row[i.open])),
        high: parseNumber(cellNumber(row[i.high])),
        low: parseNumber(cellNumber(row[i.low])),
        volume: parseNumber(cellNumber(row[i.volume]))
      })
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
    const date = karachiDateOfEpoch(item[0])
    const close = typeof item[1] === "number" && Number.isFinite(item[1]) ? item[1] : undefined
    if (close === undefined) {
      out.skip("unreadable close")
      continue
    }
    out.add({
      date,
      close,
      ...defined({
        volume: typeof item[2] === "number" ? item[2] : undefined,
        open: typeof item[3] === "number" && item[3] > 0 ? item[3] : undefined
      })
    })
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

/** `/market-watch`: columns found by their `data-name`. */
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
        ldcp: n("ldcp"),
        open: n("open"),
        high: n("high"),
        low: n("low"),
        current: n("close"),
        change: n("change"),
        changePct: n("percentChange"),
        volume: n("volume")
      })
    })
  }
  return out.done()
}

export interface SummaryRow extends PriceRow {
  readonly symbol: string
  readonly sectorCode: string
  readonly name: string
  readonly prevClose?: number
  /** Ex-markers PSX appends to the short name on the ex-day: XD cash, XB bonus, XR right. */
  readonly exMarkers: ReadonlyArray<"XD" | "XB" | "XR">
}

const csvLines = (text: string) => text.split(/\r?\n/).filter((l) => l.trim() !== "")
const csvCells = (line: string) => line.split(",").map((c) => c.replace(/^"|"$/g, "").trim())

/** The daily market summary (CSV rendering: date,symbol,sector_code,company_name,open,high,low,close,volume,prev_close). */
export const parseMarketSummary = (csv: string): Parsed<SummaryRow> => {
  const out = collector<SummaryRow>()
  const seen = new Set<string>()
  for (const line of csvLines(csv).slice(1)) {
    const c = csvCells(line)
    const date = parseDate(c[0])
    const symbol = (c[1] ?? "").toUpperCase()
    const close = parseNumber(c[7])
    if (date === undefined || symbol === "" || close === undefined) {
      out.skip("unreadable row")
      continue
    }
    if (seen.has(symbol)) {
      out.skip("duplicate row")
      continue
    }
    seen.add(symbol)
    const rawName = c[3] ?? ""
    const markers: Array<"XD" | "XB" | "XR"> = []
    let name = rawName
    for (;;) {
      const m = /(XD|XB|XR)$/.exec(name)
      if (!m) break
      markers.unshift(m[1] === "XD" ? "XD" : m[1] === "XB" ? "XB" : "XR")
      name = name.slice(0, -2)
    }
    out.rows.push({
      date,
      symbol,
      sectorCode: c[2] ?? "",
      name: name.trim(),
      close,
      exMarkers: markers,
      ...defined({
        open: parseNumber(c[4]),
        high: parseNumber(c[5]),
        low: parseNumber(c[6]),
        volume: parseNumber(c[8]),
        prevClose: parseNumber(c[9])
      })
    })
  }
  return out.done()
}

/** `date,close,volume` rows (the `/timeseries/eod` recording in the pack); dates are UTC timestamps. */
export const parseCloseVolumeCsv = (csv: string): Parsed<PriceRow> => {
  const out = dailyRows()
  for (const line of csvLines(csv).slice(1)) {
    const c = csvCells(line)
    const date = parseDate(c[0])
    const close = parseNumber(c[1])
    if (date === undefined || close === undefined) {
      out.skip("unreadable row")
      continue
    }
    out.add({ date, close, ...defined({ volume: parseNumber(c[2]) }) })
  }
  return out.done()
}

/** `"Date_","Open","High","Low","Close","Change","ChangeP","Volume"` rows (full OHLCV recording). */
export const parseOhlcvCsv = (csv: string): Parsed<PriceRow> => {
  const out = dailyRows()
  for (const line of csvLines(csv).slice(1)) {
    const c = csvCells(line)
    const date = (c[0] ?? "").slice(0, 10)
    const close = parseNumber(c[4])
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || close === undefined) {
      out.skip("unreadable row")
      continue
    }
    out.add({
      date,
      close,
      ...defined({ open: parseNumber(c[1]), high: parseNumber(c[2]), low: parseNumber(c[3]), volume: parseNumber(c[7]) })
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
