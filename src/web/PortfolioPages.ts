/**
 * The portfolio and ledger page shells: holdings, charts, allocation,
 * income, the transaction form and history; the tax-year statement; the
 * ledger's events, verify, checkpoint and export.
 */
import { html, renderPage } from "./Layout.ts"
import { dataTable, field, signedOut, skeleton } from "./PageParts.ts"

/**
 * The dialog that records a transaction (fields shown per kind), opened by
 * "Add transaction" at the top of the page. Without scripts the form still
 * shows, in place, at the foot of the page.
 */
const transactionForm = html`
<dialog id="tx-dialog" aria-labelledby="h-record">
  <div class="dialog-head"><h2 id="h-record">Add a transaction</h2>
  <button type="button" class="secondary small" id="tx-close">Close</button></div>
  <p class="hint">No order is placed: this records what you did at your broker. Rejections change nothing and show
  the service's own message.</p>
  <form id="tx-form" method="post" novalidate autocomplete="off">
    <div class="field" id="tx-edit" hidden>
      <p class="hint" id="tx-edit-what"></p>
      <label for="tx-reason">Reason for the correction</label>
      <input id="tx-reason" name="reason" maxlength="1000" autocomplete="off" aria-describedby="tx-reason-hint">
      <p class="hint" id="tx-reason-hint">Events are never changed: the original is reversed with this reason, and the entry below is recorded in its place.</p>
    </div>
    <div class="field">
      <label for="tx-kind">Kind</label>
      <select id="tx-kind" name="kind">
        <option value="buy">Buy</option><option value="sell">Sell</option><option value="dividend">Dividend</option>
        <option value="bonus">Bonus issue</option><option value="split">Split</option>
        <option value="tax_status">Tax status (filer or not)</option>
      </select>
    </div>
    ${
  field(
    "tx-symbol",
    "Symbol",
    `required autocapitalize="characters" spellcheck="false" list="tx-symbol-list"`,
    "buy sell dividend bonus split",
    "Type a ticker or a company name and pick from the list."
  )
}
    <datalist id="tx-symbol-list"></datalist>
    ${
  field(
    "tx-trade_date",
    "Trade date",
    `required placeholder="25 May 2026" spellcheck="false"`,
    "buy sell dividend bonus split tax_status",
    "For a dividend or bonus, the payment or credit date; for a tax status, the day it holds from."
  )
}
    ${field("tx-quantity", "Quantity (shares)", `inputmode="decimal" required`, "buy sell")}
    ${
  field(
    "tx-price",
    "Price (rupees per share)",
    `inputmode="decimal" required`,
    "buy sell",
    "Filled in with that day's close when one is recorded; change it to your own fill price."
  )
}
    ${
  field(
    "tx-fees",
    "Fees (rupees, optional)",
    `inputmode="decimal"`,
    "buy sell",
    "Brokerage, taxes and charges; 0 when left empty."
  )
}
    ${
  field(
    "tx-per_share",
    "Dividend per share (rupees)",
    `inputmode="decimal"`,
    "dividend",
    "Or give the gross amount instead."
  )
}
    ${
  field(
    "tx-gross_amount",
    "Gross amount (rupees)",
    `inputmode="decimal"`,
    "dividend",
    "As the warrant shows it; with the tax withheld, it replaces the rule."
  )
}
    ${field("tx-tax_withheld", "Tax withheld (rupees, optional)", `inputmode="decimal"`, "dividend")}
    ${
  field(
    "tx-book_closure_from",
    "Book closure from (optional)",
    `placeholder="20 May 2026" spellcheck="false"`,
    "dividend bonus",
    "The first day of the book closure: shares held at the last buy date before it are entitled. Left empty, the recorded payout's is used."
  )
}
    <div class="field" data-kinds="dividend tax_status">
      <label for="tx-filer">Filer status (optional for a dividend)</label>
      <select id="tx-filer" name="filer" aria-describedby="tx-filer-hint">
        <option value="">As recorded for the portfolio</option>
        <option value="filer">Filer (Active Taxpayers List)</option>
        <option value="non-filer">Non-filer</option>
      </select>
      <p class="hint" id="tx-filer-hint">Picks the withholding rate (15% filers, 30% non-filers). For Tax status, it holds from the trade date on.</p>
    </div>
    ${
  field(
    "tx-percent",
    "Bonus percent",
    `inputmode="decimal" required`,
    "bonus",
    "As the exchange states it: 10 means one new share for every ten held."
  )
}
    ${
  field("tx-numerator", "New shares", `inputmode="numeric" required`, "split", "5 for 1: new shares 5, old shares 1.")
}
    ${field("tx-denominator", "For old shares", `inputmode="numeric" required`, "split")}
    <button type="submit">Record</button>
  </form>
  <p id="tx-error" class="error" role="alert"></p>
  <div id="tx-result" role="status" aria-live="polite"></div>
</dialog>`

/** CSV import (a dry run first, then the real import) and export. */
const csvSection = html`
<section aria-labelledby="h-import">
  <h2 id="h-import">Import and export (CSV)</h2>
  <p>Export every event of the ledger as a spreadsheet file, or import one: nothing is recorded until you confirm the
  preview, and then all rows or none are.</p>
  <p><button type="button" id="export-csv" class="secondary">Export transactions (CSV)</button>
  <span id="export-csv-status" role="status" aria-live="polite"></span></p>
  <p>A broker's statement imports as it is: its columns (trade date, buy or sell, symbol, quantity, rate, commission
  and charges) are recognised and shown for you to check.
  <a href="/v1/me/transactions/import/template?columns=trades" download="psx-import-template.csv" id="import-template">Download a template</a>
  for your own records.</p>
  <form id="import-form" class="inline-form">
    <label for="import-file">CSV file to import</label>
    <input type="file" id="import-file" accept=".csv,text/csv" required>
    <div class="field" id="import-date-order-field" hidden>
      <label for="import-date-order">Dates in the file are written</label>
      <select id="import-date-order">
        <option value="">As the file shows</option>
        <option value="dmy">Day first: 03/04/2026 is 3 Apr 2026</option>
        <option value="mdy">Month first: 03/04/2026 is 4 Mar 2026</option>
      </select>
    </div>
    <button type="submit">Check the file</button>
  </form>
  <div id="import-preview" aria-live="polite"></div>
</section>`

export const portfolioPage = () =>
  renderPage({
    section: "portfolio",
    title: "Portfolio",
    scripts: ["/assets/portfolio.js"],
    styles: ["/assets/vendor/uplot.css"],
    body: html`
${signedOut}
<div class="page-actions" id="page-actions">
  <button type="button" id="add-tx">Add transaction</button>
  <a href="#h-income">Income</a> <a href="#h-history">History</a> <a href="#h-import">Import or export</a>
  <a href="/portfolio/tax">Tax-year statement</a>
</div>
<section aria-labelledby="h-summary">
  <h2 id="h-summary" class="visually-hidden">Summary</h2>
  <div id="cards" class="cards-row">${skeleton(5)}</div>
</section>
<section aria-labelledby="h-value">
  <h2 id="h-value">Performance</h2>
  <div id="value">${skeleton(1, "chart")}</div>
</section>
<section aria-labelledby="h-holdings">
  <h2 id="h-holdings">Holdings</h2>
  <p class="hint">Market values use the latest <span class="badge">delayed</span> quote. A dash means unknown
  (no quote), never zero. Select a symbol's arrow for its other figures.</p>
  <p id="holdings-status" role="status" aria-live="polite"></p>
  <div id="holdings">${skeleton(5, "table")}</div>
</section>
<section aria-labelledby="h-income">
  <h2 id="h-income">Dividend income</h2>
  <div id="entitlements">${skeleton(2)}</div>
  <div id="income">${skeleton(3, "table")}</div>
</section>
<section aria-labelledby="h-allocation">
  <h2 id="h-allocation">Allocation</h2>
  <div id="allocation">${skeleton(3)}</div>
</section>
<section aria-labelledby="h-history">
  <h2 id="h-history">Transaction history</h2>
  <p class="hint">By trade date, newest first. Events are never changed or deleted: "Reverse…" records a reversal
  event with your reason.</p>
  <div class="row history-filters">
    <div class="field"><label for="history-symbol">Symbol</label><select id="history-symbol"><option value="">All symbols</option></select></div>
    <div class="field"><label for="history-kind">Kind</label><select id="history-kind"><option value="">All kinds</option></select></div>
  </div>
  <p id="history-status" role="status" aria-live="polite"></p>
  ${
      dataTable("history-table", "Recorded transactions by trade date, newest first", [
        "Trade date",
        "Event",
        "Symbol",
        "Details",
        "Recorded at",
        "Action"
      ], { cards: true })
    }
  <button type="button" id="history-more" class="secondary" hidden>Show older transactions</button>
</section>
${csvSection}
${transactionForm}`
  })

/** The tax-year statement (GET /v1/me/tax-statement): a year picker, then what a return asks for and each line behind it. */
export const taxPage = () =>
  renderPage({
    section: "tax",
    title: "Tax-year statement",
    scripts: ["/assets/tax.js"],
    body: html`
${signedOut}
<p class="lead">What your ledger records for one tax year: sales with their gains and holding periods, dividends
with the tax withheld, bonus shares, donations, and the figures a return asks for. Pakistan's tax year runs from
1 July to 30 June and is named by the year it ends (tax year 2026: 1 July 2025 to 30 June 2026).</p>
<p class="hint no-print"><a href="/portfolio">Back to the portfolio</a></p>
<form id="tax-form" class="inline-form no-print" method="get" action="/portfolio/tax">
  <label for="tax-year">Tax year</label>
  <div class="row">
    <select id="tax-year" name="tax_year" aria-describedby="tax-year-hint"></select>
    <button type="submit">Show</button>
    <button type="button" id="tax-print" class="secondary">Print or save as PDF</button>
  </div>
  <p class="hint" id="tax-year-hint">The last complete year is shown first: the one a return is filed for.</p>
</form>
<div id="tax-statement">${skeleton(6, "table")}</div>`
  })

export const ledgerPage = () =>
  renderPage({
    section: "ledger",
    title: "Ledger",
    scripts: ["/assets/ledger.js"],
    body: html`
${signedOut}
<p class="lead">Every change to your portfolio is an event in a hash chain: each event's hash covers the one
before it. Events are never changed; a mistake is corrected by a reversal event.</p>
<section aria-labelledby="h-verify">
  <h2 id="h-verify">Verify</h2>
  <p>Recomputes the chain and replays every event into a fresh projection on the server.</p>
  <button type="button" id="verify">Verify the ledger</button>
  <div id="verify-result" role="status" aria-live="polite"></div>
</section>
<section aria-labelledby="h-checkpoint">
  <h2 id="h-checkpoint">Latest signed checkpoint</h2>
  <p>The service signs the head of your chain. With the public key below anyone can check that this ledger
  is the one the service vouched for.</p>
  <div id="checkpoint"></div>
</section>
<section aria-labelledby="h-export">
  <h2 id="h-export">Export</h2>
  <p>Your whole ledger as NDJSON, in the format <code>ledger export</code> writes: one event a line, oldest first,
  with its metadata and hashes, and a last line holding a fresh signed checkpoint of the chain's head. Check the file
  away from this service with <code>node verify-ledger.mjs --public-key key.pem file.ndjson</code> (docs/verify-ledger.mjs,
  Node's standard library only), where key.pem holds the public key above.</p>
  <button type="button" id="export">Export the ledger (NDJSON)</button>
  <p id="export-status" role="status" aria-live="polite"></p>
</section>
<section aria-labelledby="h-events">
  <h2 id="h-events">Events</h2>
  <p id="events-status" role="status" aria-live="polite"></p>
  ${
      dataTable("events-table", "Ledger events", [
        "#Version",
        "Event",
        "Effective",
        "Recorded at",
        "Previous hash",
        "Hash",
        "Action"
      ], { cards: true })
    }
  <button type="button" id="events-more" class="secondary" hidden>Show more events</button>
</section>`
  })
