/**
 * Parser for the portal's company page (`GET /company/{SYM}`): the quote
 * block and its stats, the profile, the equity profile (shares, free float),
 * income-statement lines (annual and quarterly, "in thousands except EPS")
 * and ratios (negatives in parentheses). Balance-sheet lines are never read.
 */
import { parseCompanyPayouts, type PayoutRow } from "./Filings.ts"
import { tables, textOf } from "./Html.ts"
import { defined, type Parsed } from "./Parsed.ts"
import { parseNumber } from "./Values.ts"

export interface StatementLine {
  readonly period: string
  readonly periodType: "annual" | "quarterly"
  readonly fiscalYear?: number
  readonly quarter?: number
  readonly line: string
  readonly value: number
  /** "thousands" for money lines, "rupees" for EPS. */
  readonly units: "thousands" | "rupees"
}

export interface CompanyPage {
  readonly name?: string
  readonly sectorName?: string
  readonly asOfText?: string
  readonly price?: number
  readonly change?: number
  readonly changePct?: number
  readonly open?: number
  readonly high?: number
  readonly low?: number
  readonly volume?: number
  readonly circuitLow?: number
  readonly circuitHigh?: number
  readonly week52Low?: number
  readonly week52High?: number
  readonly description?: string
  readonly fiscalYearEnd?: string
  readonly marketCapThousands?: number
  readonly shares?: number
  readonly freeFloatShares?: number
  readonly freeFloatPct?: number
  readonly statements: ReadonlyArray<StatementLine>
  readonly ratios: ReadonlyArray<{ readonly period: string; readonly name: string; readonly value: number }>
  /** Values present on the page that could not be read. */
  readonly unreadable: number
}

const between = (html: string, start: string, end?: string) => {
  const i = html.indexOf(start)
  if (i < 0) return ""
  const j = end ? html.indexOf(end, i + start.length) : -1
  return html.slice(i, j < 0 ? undefined : j)
}

const balanceSheet = /total assets|total liabilities|equity|deposits|advances|investments|borrowings|cash and/i

const STAT = /<div class="stats_label">([\s\S]*?)<\/div><div class="stats_value">([\s\S]*?)<\/div>/g

/** The regular market's stats panel: upper-case label → its value's HTML (the first of a repeated label). */
const regularMarketStats = (html: string) => {
  const stats = new Map<string, string>()
  const regPanel = between(html, "data-name=\"REG\"><div class=\"stats", "class=\"tabs__panel\" data-name=\"FUT\"")
  for (const m of regPanel.matchAll(STAT)) {
    const label = textOf(m[1]!).toUpperCase()
    if (!stats.has(label)) stats.set(label, m[2]!)
  }
  return stats
}

type ReadNumber = (s: string | undefined) => number | undefined

/** The income statement lines of the FINANCIALS panels (annual and quarterly); balance-sheet lines are left out. */
const statementsOf = (html: string, num: ReadNumber): Array<StatementLine> => {
  const statements: Array<StatementLine> = []
  const fin = between(html, "id=\"financials\"", "id=\"ratios\"")
  for (const panel of fin.split("class=\"tabs__panel\"").slice(1)) {
    const periodType = /data-name="Quarterly"/.test(panel.slice(0, 40)) ? "quarterly" : "annual"
    const t = tables(panel.includes("</table>") ? panel : panel + "</table>")[0]
    if (!t) continue
    const head = /<thead[\s\S]*?<tr>([\s\S]*?)<\/tr>/.exec(panel)?.[1] ?? ""
    const periods = [...head.matchAll(/<th[^>]*>([\s\S]*?)<\/th>/g)].map((m) => textOf(m[1]!)).slice(1)
    for (const row of t.rows) {
      const line = row[0]?.text ?? ""
      if (line === "" || balanceSheet.test(line)) continue
      row.slice(1).forEach((cell, i) => {
        const period = periods[i]
        const value = num(cell.text)
        if (period === undefined || value === undefined) return
        const q = /^Q(\d)\s+(\d{4})$/.exec(period)
        const y = /^(\d{4})$/.exec(period)
        statements.push({
          period,
          periodType,
          line,
          value,
          units: /^EPS/i.test(line) ? "rupees" : "thousands",
          ...defined({
            fiscalYear: q ? Number(q[2]) : y ? Number(y[1]) : undefined,
            quarter: q ? Number(q[1]) : undefined
          })
        })
      })
    }
  }
  return statements
}

/** The RATIOS table: one figure per period and ratio name. */
const ratiosOf = (html: string, num: ReadNumber) => {
  const ratios: Array<{ period: string; name: string; value: number }> = []
  const rt = tables(between(html, "id=\"ratios\"", "id=\"payouts\""))[0]
  if (rt) {
    const periods = rt.headers.slice(1).map((h) => h.text)
    for (const row of rt.rows) {
      const name = row[0]?.text ?? ""
      row.slice(1).forEach((cell, i) => {
        const value = num(cell.text)
        if (periods[i] !== undefined && value !== undefined && name !== "") {
          ratios.push({ period: periods[i]!, name, value })
        }
      })
    }
  }
  return ratios
}

export const parseCompanyPage = (raw: string): CompanyPage => {
  const html = raw.replace(/<!--[\s\S]*?-->/g, "")
  let unreadable = 0
  const num = (s: string | undefined) => {
    const v = parseNumber(s)
    if (s !== undefined && s.trim() !== "" && v === undefined) unreadable++
    return v
  }
  const firstText = (re: RegExp) => {
    const m = re.exec(html)
    return m ? textOf(m[1]!) : undefined
  }
  const stats = regularMarketStats(html)
  const range = (label: string) => {
    const v = stats.get(label)
    if (v === undefined) return {}
    const low = /data-low="([^"]*)"/.exec(v)?.[1]
    const high = /data-high="([^"]*)"/.exec(v)?.[1]
    return { low: num(low), high: num(high) }
  }
  const cb = range("CIRCUIT BREAKER")
  const wk = range("52-WEEK RANGE ^")
  const equity = between(html, "id=\"equity\"", "id=\"announcements\"")
  const eq = [...equity.matchAll(STAT)].map((m): readonly [string, string] => [textOf(m[1]!), textOf(m[2]!)])
  const ff = eq.filter(([l]) => /free float/i.test(l))
  const statements = statementsOf(html, num)
  const ratios = ratiosOf(html, num)
  const changePctText = firstText(/<div class="change__percent">([\s\S]*?)<\/div>/)
  return {
    statements,
    ratios,
    unreadable,
    ...defined({
      name: firstText(/<div class="quote__name">([\s\S]*?)<\/div>/),
      sectorName: firstText(/<div class="quote__sector">([\s\S]*?)<\/div>/),
      asOfText: firstText(/<div class="quote__date">\^?\s*As of ([\s\S]*?)<\/div>/),
      price: num(firstText(/<div class="quote__close">([\s\S]*?)<\/div>/)),
      change: num(firstText(/<div class="change__value">([\s\S]*?)<\/div>/)),
      changePct: changePctText ? num(changePctText.replace(/[()]/g, "")) : undefined,
      open: num(stats.get("OPEN")),
      high: num(stats.get("HIGH")),
      low: num(stats.get("LOW")),
      volume: num(stats.get("VOLUME")),
      circuitLow: cb.low,
      circuitHigh: cb.high,
      week52Low: wk.low,
      week52High: wk.high,
      description: firstText(/BUSINESS DESCRIPTION<\/div><p>([\s\S]*?)<\/p>/),
      fiscalYearEnd: firstText(/Fiscal Year End<\/div><p>([\s\S]*?)<\/p>/),
      marketCapThousands: num(eq.find(([l]) => /market cap/i.test(l))?.[1]),
      shares: num(eq.find(([l]) => /^shares$/i.test(l))?.[1]),
      freeFloatShares: num(ff.find(([, v]) => !v.includes("%"))?.[1]),
      freeFloatPct: num(ff.find(([, v]) => v.includes("%"))?.[1])
    })
  }
}

/** The PAYOUTS table of a company page: the same rows as `POST /company/payouts` for that symbol. */
export const parseCompanyPagePayouts = (symbol: string, raw: string): Parsed<PayoutRow> =>
  parseCompanyPayouts(symbol, between(raw.replace(/<!--[\s\S]*?-->/g, ""), "id=\"payouts\"", "id=\"reports\""))
