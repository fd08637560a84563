// @ts-check
// The symbol page's sections below the chart: dividends with their coverage,
// announcements, financials, technical states and the research package's
// provenance. Each says "unknown" where the service does not know, never 0.
import { badge, dateText, el, fmtAmount, fmtMoney, fmtPct, fmtQty, fmtTime, unknown } from "./api.js"
import { fact, facts, known, num, show, sourcesNote, table } from "./ui.js"

/** A date as "25 May 2026", or unknown. @param {unknown} d */
const knownDate = (d) => (typeof d === "string" && d !== "" ? dateText(d) : unknown())
import { DATES_NOTE } from "./market-sectors.js"
import { apiText, plainName } from "./format.js"

/** A section's honest empty state. @param {string} text */
const unknownNote = (text) => el("p", { class: "unknown-note" }, badge("unknown"), " ", text)

/**
 * @param {HTMLElement} out
 * @param {any} dividends the research package's dividends (coverage, items, sources)
 * @param {string} symbol
 */
export const renderDividends = (out, dividends, symbol) => {
  const coverage = dividends?.coverage ?? "unknown"
  const items = /** @type {any[]} */ (dividends?.items ?? [])
  show(
    out,
    facts(
      fact("Coverage", el("span", { id: "dividend-coverage" }, coverage === "recorded" ? badge("recorded", "on") : badge(coverage))),
      fact("Recorded since", knownDate(dividends?.data_coverage_start)),
      fact("Trailing 12 months", typeof dividends?.ttm_dividend_percent === "number" ? `${dividends.ttm_dividend_percent}% of face value` : unknown()),
      fact("Years paid", typeof dividends?.years_paid === "number" ? String(dividends.years_paid) : unknown())
    ),
    coverage !== "recorded"
      ? unknownNote(`The service holds no payout record for ${symbol}: its dividends are unknown, not none.`)
      : items.length === 0
      ? el("p", {}, "No payout is recorded in the covered period.")
      : [el("p", {}, DATES_NOTE), table(
        `Payouts of ${symbol}`,
        [["Period"], ["Kind"], ["Percent", "num"], ["Details"], ["Last buy date"], ["XD (trades ex)"], ["Book closure (ex-date)"], ["Announced"]],
        items.map((d) => [
          d.period_label ?? d.fiscal_year,
          `${d.kind}${d.sequence ? ` (${d.sequence})` : ""}`,
          num(typeof d.percent === "number" ? `${d.percent}%` : unknown()),
          d.details ?? unknown(),
          knownDate(d.last_buy_date),
          knownDate(d.xd_date),
          d.ex_date ? `${dateText(d.ex_date)}${d.book_closure_to && d.book_closure_to !== d.ex_date ? ` to ${dateText(d.book_closure_to)}` : ""}` : unknown(),
          fmtTime(d.announced_at)
        ]),
        { cards: true }
      )],
    sourcesNote(dividends?.sources)
  )
}

/** @param {HTMLElement} out @param {any} page /v1/stocks/{s}/announcements @param {string} symbol */
export const renderAnnouncements = (out, page, symbol) => {
  const items = /** @type {any[]} */ (page?.items ?? [])
  show(
    out,
    items.length === 0
      ? unknownNote(page?.note ? apiText(page.note) : `No announcement of ${symbol} is recorded. The service holds only slices of the exchange's announcements, so others are unknown, not absent.`)
      : table(
        `Announcements of ${symbol}`,
        [["Published"], ["Title"], ["Document"]],
        // A filing dated by the exchange without a time shows its date alone (published_at is absent), never a made-up 00:00.
        items.map((a) => [
          { cell: fmtTime(a.published_at ?? a.published_on), class: "nowrap" },
          el("span", {}, a.title, a.revoked ? [" ", badge("revoked", "warn")] : []),
          a.document_url ? el("a", { href: a.document_url, rel: "noopener noreferrer" }, "at the exchange") : unknown()
        ])
      ),
    sourcesNote(page?.sources)
  )
}

const UNITS = /** @type {Record<string, string>} */ ({ thousands: "Rs '000", rupees: "Rs", millions: "Rs m" })

/** @param {HTMLElement} out @param {any[] | undefined} periods @param {string} symbol */
export const renderFinancials = (out, periods, symbol) => {
  if (!Array.isArray(periods) || periods.length === 0) {
    return show(out, unknownNote(`No financial statement of ${symbol} is recorded.`))
  }
  const shown = periods.slice(0, 6)
  const lines = [...new Set(shown.flatMap((p) => p.lines.map((/** @type {any} */ l) => `${l.line}|${l.units}`)))]
  const value = (/** @type {any} */ p, /** @type {string} */ key) => {
    const l = p.lines.find((/** @type {any} */ x) => `${x.line}|${x.units}` === key)
    return l === undefined ? unknown() : fmtAmount(l.value)
  }
  show(
    out,
    table(
      `Financials of ${symbol}, newest first`,
      [["Line"], ...shown.map((p) => /** @type {[string, string]} */ ([`${p.period} (${p.period_type})`, "num"]))],
      lines.map((key) => {
        const [line, units] = key.split("|")
        return [el("span", {}, line, el("span", { class: "hint" }, ` ${UNITS[units ?? ""] ?? units}`)), ...shown.map((p) => num(value(p, key)))]
      })
    ),
    el("p", { class: "hint" }, "A dash is a line the source did not give for that period: unknown, not zero. No balance sheet is recorded.")
  )
}

const TECHNICAL_ROWS = /** @type {Array<[string, string, (t: any) => any]>} */ ([
  ["sma_20", "SMA 20", (t) => el("span", {}, fmtMoney(t.value), `; price ${t.price_vs}`)],
  ["sma_50", "SMA 50", (t) => el("span", {}, fmtMoney(t.value), `; price ${t.price_vs}`)],
  ["sma_200", "SMA 200", (t) => el("span", {}, fmtMoney(t.value), `; price ${t.price_vs}`)],
  ["rsi_14", "RSI 14 (Wilder)", (t) => `${t.value} (${t.zone})`],
  ["macd", "MACD 12/26/9", (t) => `${t.macd} vs signal ${t.signal}: ${t.state.replaceAll("_", " ")}`],
  ["bollinger", "Bollinger 20, 2σ", (t) => el("span", {}, fmtMoney(t.lower), " – ", fmtMoney(t.upper), `; %B ${t.percent_b} (${t.position.replaceAll("_", " ")})`)],
  ["volatility_20d", "Volatility, 20 sessions", (t) => el("span", {}, fmtPct(t.annualised_pct), ` a year (${t.level})`)]
])

/** @param {HTMLElement} out @param {any} t the technicals */
export const renderTechnicals = (out, t) => {
  if (!t) return show(out, unknownNote("No technical state could be computed: too little price history."))
  const missing = new Map((t.unavailable ?? []).map((/** @type {any} */ u) => [u.figure, u.reason]))
  show(
    out,
    el("p", {}, "States, never a buy or sell rating. As of ", el("strong", {}, dateText(t.as_of) || "unknown"), `, last close Rs `, fmtMoney(t.last_close), "."),
    el("ul", { class: "labels", "aria-label": "State labels" }, (t.labels ?? []).map((/** @type {string} */ l) => el("li", {}, badge(l.replaceAll("_", " "))))),
    facts(
      ...TECHNICAL_ROWS.map(([key, label, show]) =>
        fact(label, t[key] ? show(t[key]) : el("span", {}, unknown(), missing.has(key) ? ` (${missing.get(key)})` : ""))
      ),
      ...[...missing.entries()].filter(([k]) => !TECHNICAL_ROWS.some(([key]) => key === k)).map(([k, reason]) => fact(k, el("span", {}, unknown(), ` (${reason})`)))
    ),
    t.adjusted_for_steps ? el("p", { class: "hint" }, "Closes were adjusted for a bonus or split step inside the window.") : ""
  )
}

/** @param {HTMLElement} out @param {any} pkg the research package */
export const renderProvenance = (out, pkg) => {
  const age = typeof pkg.quote_age_seconds === "number" ? `${fmtQty(Math.round(pkg.quote_age_seconds / 86400))} days` : unknown()
  show(
    out,
    facts(
      fact("Package generated", fmtTime(pkg.generated_at)),
      fact("Quote age at that time", age),
      fact("Quote", pkg.quote ? el("span", {}, fmtTime(pkg.quote.as_of), " ", badge(pkg.quote.status ?? "delayed"), pkg.quote.stale ? [" ", badge("stale", "warn")] : []) : unknown())
    ),
    el("h3", {}, "Caveats"),
    Array.isArray(pkg.caveats) && pkg.caveats.length
      ? el("ul", { id: "caveats" }, pkg.caveats.map((/** @type {any} */ c) => el("li", {}, el("code", {}, c.code), `: ${c.message}`)))
      : el("p", {}, "None stated."),
    el("h3", {}, "Sources"),
    table(
      "Sources of the research package",
      [["Dataset"], ["Source"], ["As of"], ["Retrieved"], ["Recorded in"]],
      (pkg.sources ?? []).map((/** @type {any} */ s) => [plainName(s.dataset), s.source ? apiText(s.source) : unknown(), typeof s.as_of === "string" ? fmtTime(s.as_of) : unknown(), known(s.retrieved_at), el("span", { class: "hash" }, known(s.recorded_in))]),
      { cards: true }
    ),
    el("p", { class: "hint" }, "The same package is what an agent gets from ", el("code", {}, `/v1/stocks/${pkg.symbol}/research`), ".")
  )
}
