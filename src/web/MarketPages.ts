/**
 * The market page shells: the board, sectors and calendar; a symbol's page;
 * the screener and the comparison. Scripts fill them from the public API.
 */
import { html, renderPage } from "./Layout.ts"
import { field, skeleton } from "./PageParts.ts"

/** The first thing a visitor sees at `/`: what the site is, and the way to start a portfolio. */
const welcome = html`<section class="welcome" aria-labelledby="h-welcome">
  <h2 id="h-welcome">Track your PSX portfolio</h2>
  <p>Record your trades or import your broker's statement; see value, income, dividends due and your tax year,
  priced from the exchange's delayed data. No e-mail, no password.</p>
  <p class="row-actions"><a class="button" href="/start">Start a portfolio</a> <a href="/start#h-resume">Sign in</a></p>
</section>`

/** The market desk; at `/` (home) for a visitor, with the welcome. */
export const marketPage = (options: { readonly home: boolean }) =>
  renderPage({
    section: options.home ? "none" : "market",
    title: options.home ? "PSX market desk" : "Market",
    scripts: ["/assets/market.js"],
    styles: ["/assets/vendor/uplot.css"],
    body: html`
${options.home ? welcome : ""}
<p id="market-status" role="status" aria-live="polite"></p>
<nav aria-label="On this page" class="toc">
  <a href="#h-board">Board</a> <a href="#h-sectors">Sectors</a> <a href="#h-calendar">Dividend calendar</a>
  <a href="#h-search">Find a company</a> <a href="/screener">Screener</a> <a href="/compare">Compare</a>
</nav>
<section aria-labelledby="h-search" id="search-section">
  <h2 id="h-search" class="visually-hidden">Find a company</h2>
  <form id="search-form" method="get" action="/market" role="search" aria-label="Find a company" class="inline-form">
    <label for="search-q">Find a company by name or ticker</label>
    <div class="row"><input id="search-q" name="q" type="search" spellcheck="false"><button type="submit">Search</button></div>
  </form>
  <p id="search-count" role="status" aria-live="polite"></p>
  <div id="search-results"></div>
</section>
<section aria-labelledby="h-board">
  <h2 id="h-board">Market board</h2>
  <p class="hint">The latest recorded session, from the delayed feed. Movers leave out lines that traded under
  Rs 10 lakh (one million rupees).</p>
  <div id="board">${skeleton(5, "table")}</div>
</section>
<section aria-labelledby="h-sectors">
  <h2 id="h-sectors">Sectors</h2>
  <div id="sectors">${skeleton(5, "table")}</div>
</section>
<section aria-labelledby="h-calendar">
  <h2 id="h-calendar">Dividend calendar</h2>
  <p class="hint">Book closures of recorded payouts, with the last day a purchase still settles in
  time to earn them (T+2 for trades to 6 Feb 2026, T+1 from 9 Feb 2026).</p>
  <div id="calendar">${skeleton(4, "table")}</div>
</section>`
  })

const symbolSection = (id: string, title: string, hint: string) =>
  html`<section aria-labelledby="h-${id}">
  <h2 id="h-${id}">${title}</h2>
  <p class="hint">${hint}</p>
  <div id="${id}">${skeleton(3)}</div>
</section>`

export const symbolPage = (symbol: string) =>
  renderPage({
    section: "market",
    title: symbol,
    scripts: ["/assets/symbol.js"],
    styles: ["/assets/vendor/uplot.css"],
    body: html`
<p><a href="/market">Back to the market board</a></p>
<div id="symbol-missing" hidden></div>
<div id="symbol-found">
<section aria-labelledby="h-quote" data-symbol="${symbol}" id="symbol-root">
  <h2 id="h-quote" class="visually-hidden">Quote</h2>
  <div id="quote">${skeleton(2)}</div>
</section>
<section aria-labelledby="h-position" id="position-section" hidden>
  <h2 id="h-position">Your position and trades</h2>
  <div id="position">${skeleton(2)}</div>
</section>
<section aria-labelledby="h-chart">
  <h2 id="h-chart">Price history</h2>
  <div class="ranges" role="group" aria-label="Price range">
    ${
      ["1M", "3M", "6M", "1Y", "5Y", "MAX"].map((r) =>
        html`<button type="button" class="range" data-range="${r}" aria-pressed="${
          r === "1Y" ? "true" : "false"
        }">${r}</button>`
      )
    }
  </div>
  <figure>
    <div id="chart" class="chart">${skeleton(1, "chart")}</div>
    <figcaption id="chart-caption"></figcaption>
  </figure>
  <div id="window"></div>
</section>
${
      symbolSection(
        "dividends",
        "Dividends",
        "Payouts as the exchange announced them, with the last buy date that still earned each one."
      )
    }
${symbolSection("announcements", "Announcements", "Filings with the exchange; the documents stay at the exchange.")}
${symbolSection("financials", "Financials", "Results as the exchange reported them, newest period first.")}
${symbolSection("technicals", "Technical states", "Computed over the last 250 clean sessions.")}
${
      symbolSection(
        "provenance",
        "Research package and its sources",
        "Where every figure on this page comes from, and what it cannot tell you."
      )
    }
</div>`
  })

const numberFilter = (name: string, label: string, hint = "") =>
  field(`sc-${name}`, label, `inputmode="decimal" data-filter="${name}"`, "", hint)

/**
 * The screener: results first (every listed security until filters are set),
 * sortable by any column; the filters in a panel beside them (above them on a
 * phone, folded away once a screen has run).
 */
export const screenerPage = () =>
  renderPage({
    section: "screener",
    title: "Screener",
    scripts: ["/assets/screener.js"],
    body: html`
<p class="lead">Every listed security on the delayed snapshot. All filters are optional. A security whose
figure is unknown for a filter you set does not match, and is counted apart: unknown is not zero.</p>
<div class="screener">
<details class="filters" id="filters-box" open>
<summary>Filters</summary>
<form id="screen-form" method="get" action="/screener" novalidate autocomplete="off">
  <fieldset><legend>Valuation and income</legend><div class="fields">
    ${numberFilter("dividend_yield_min", "Dividend yield at least (%)")}
    ${numberFilter("pe_min", "P/E at least")}
    ${numberFilter("pe_max", "P/E at most")}
    ${numberFilter("market_cap_min", "Market cap at least (Rs)")}
    ${numberFilter("market_cap_max", "Market cap at most (Rs)")}
  </div></fieldset>
  <fieldset><legend>Price moves</legend><div class="fields">
    ${numberFilter("daily_change_min", "Day's change at least (%)")}
    ${numberFilter("daily_change_max", "Day's change at most (%)", "0: at or below the previous close.")}
    ${numberFilter("drawdown_5d_min", "Below the 5-session high by at least (%)")}
    ${numberFilter("drawdown_20d_min", "Below the 20-session high by at least (%)")}
    <div class="field"><label for="sc-drawdown_mode">Both drawdown gates</label>
      <select id="sc-drawdown_mode" data-filter="drawdown_mode"><option value="">either (any)</option><option value="all">both (all)</option></select></div>
  </div></fieldset>
  <fieldset><legend>Liquidity and float</legend><div class="fields">
    ${numberFilter("min_value_traded", "Traded in the session at least (Rs)")}
    ${numberFilter("min_avg_volume_30d", "Average volume, 30 sessions, at least")}
    ${numberFilter("min_avg_value_traded_30d", "Average traded, 30 sessions, at least (Rs)")}
    ${numberFilter("free_float_min_pct", "Free float at least (% of shares)")}
    ${numberFilter("free_float_min_shares", "Free float at least (shares)")}
  </div></fieldset>
  <fieldset><legend>Membership</legend><div class="fields">
    <div class="field"><label for="sc-sectors">Sectors</label>
      <select id="sc-sectors" multiple size="5" data-filter="sectors" aria-describedby="sc-sectors-hint"></select>
      <p class="hint" id="sc-sectors-hint">Any of those chosen; none chosen: every sector.</p></div>
    <div class="field"><label for="sc-inside_kse100">KSE-100</label>
      <select id="sc-inside_kse100" data-filter="inside_kse100"><option value="">members or not</option><option value="true">members only</option><option value="false">non-members only</option></select></div>
    <div class="field"><label for="sc-security_types">Security types</label>
      <select id="sc-security_types" multiple size="4" data-filter="security_types">
        ${
      ["equity", "etf", "debt", "right", "preference", "other"].map((t) => html`<option value="${t}">${t}</option>`)
    }
      </select></div>
    <div class="check"><input type="checkbox" id="sc-exclude_ex_dividend" data-filter="exclude_ex_dividend">
      <label for="sc-exclude_ex_dividend">Only securities known not to be ex-dividend today</label></div>
  </div></fieldset>
  <div class="row"><button type="submit">Screen</button><button type="reset" class="secondary" id="screen-reset">Clear filters</button></div>
</form>
</details>
<section aria-labelledby="h-results" class="results">
  <h2 id="h-results">Results</h2>
  <p id="screen-error" class="error" role="alert"></p>
  <p id="screen-status" role="status" aria-live="polite"></p>
  <div id="screen-results">${skeleton(6, "table")}</div>
  <div class="row pager"><button type="button" id="screen-more" class="secondary" hidden>Show more</button></div>
</section>
</div>`
  })

export const comparePage = () =>
  renderPage({
    section: "compare",
    title: "Compare",
    scripts: ["/assets/compare.js"],
    styles: ["/assets/vendor/uplot.css"],
    body: html`
<p class="lead">Compare 2 to 10 securities on performance, drawdown, volatility, P/E, dividend yield, size and
liquidity, with their prices over the same days, each starting at 100.</p>
<form id="compare-form" method="get" action="/compare" autocomplete="off" class="inline-form">
  <label for="compare-symbols">Symbols (2 to 10, separated by commas or spaces)</label>
  <div class="row"><input id="compare-symbols" name="symbols" required spellcheck="false" autocapitalize="characters" aria-describedby="compare-hint">
  <button type="submit">Compare</button></div>
  <p class="hint" id="compare-hint">For example: HBL, MEBL or HUBC KAPCO PSO.</p>
</form>
<p id="compare-error" class="error" role="alert"></p>
<div id="compare-result" aria-live="polite"></div>`
  })
