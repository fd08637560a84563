/**
 * The portfolio and ledger page shells: holdings, charts, allocation,
 * income, the transaction form and history; the ledger's events, verify,
 * checkpoint and export.
 */
import { html, renderPage } from "./Layout.ts"
import { dataTable, field, signedOut } from "./PageParts.ts"

/** The form that records a transaction (fields shown per kind). */
const transactionForm = html`
<section aria-labelledby="h-record">
  <h2 id="h-record">Record a transaction</h2>
  <p class="hint">No order is placed: this records what you did at your broker. Rejections change nothing and show
  the service's own message.</p>
  <form id="tx-form" method="post" novalidate autocomplete="off">
    <div class="field">
      <label for="tx-kind">Kind</label>
      <select id="tx-kind" name="kind">
        <option value="buy">Buy</option><option value="sell">Sell</option><option value="dividend">Dividend</option>
        <option value="bonus">Bonus issue</option><option value="split">Split</option>
        <option value="tax_status">Tax status (filer or not)</option>
      </select>
    </div>
    ${field("tx-symbol", "Symbol", `required autocapitalize="characters" spellcheck="false"`, "buy sell dividend bonus split")}
    ${field("tx-trade_date", "Trade date", `type="date" required`, "buy sell dividend bonus split tax_status", "For a dividend or bonus, the payment or credit date; for a tax status, the day it holds from.")}
    ${field("tx-quantity", "Quantity (shares)", `inputmode="decimal" required`, "buy sell")}
    ${field("tx-price", "Price (rupees per share)", `inputmode="decimal" required`, "buy sell")}
    ${field("tx-fees", "Fees (rupees, optional)", `inputmode="decimal"`, "buy sell", "Brokerage, taxes and charges; 0 when left empty.")}
    ${field("tx-per_share", "Dividend per share (rupees)", `inputmode="decimal"`, "dividend", "Or give the gross amount instead.")}
    ${field("tx-gross_amount", "Gross amount (rupees)", `inputmode="decimal"`, "dividend", "As the warrant shows it; with the tax withheld, it replaces the rule.")}
    ${field("tx-tax_withheld", "Tax withheld (rupees, optional)", `inputmode="decimal"`, "dividend")}
    ${field("tx-book_closure_from", "Book closure from (optional)", `type="date"`, "dividend bonus", "The first day of the book closure: shares held at the last buy date before it are entitled. Left empty, the recorded payout's is used.")}
    <div class="field" data-kinds="dividend tax_status">
      <label for="tx-filer">Filer status (optional for a dividend)</label>
      <select id="tx-filer" name="filer" aria-describedby="tx-filer-hint">
        <option value="">As recorded for the portfolio</option>
        <option value="filer">Filer (Active Taxpayers List)</option>
        <option value="non-filer">Non-filer</option>
      </select>
      <p class="hint" id="tx-filer-hint">Picks the withholding rate (15% filers, 30% non-filers). For Tax status, it holds from the trade date on.</p>
    </div>
    ${field("tx-percent", "Bonus percent", `inputmode="decimal" required`, "bonus", "As the exchange states it: 10 means one new share for every ten held.")}
    ${field("tx-numerator", "New shares", `inputmode="numeric" required`, "split", "5 for 1: new shares 5, old shares 1.")}
    ${field("tx-denominator", "For old shares", `inputmode="numeric" required`, "split")}
    <button type="submit">Record</button>
  </form>
  <p id="tx-error" class="error" role="alert"></p>
  <div id="tx-result" role="status" aria-live="polite"></div>
</section>`

export const portfolioPage = () =>
  renderPage({
    section: "portfolio",
    title: "Portfolio",
    scripts: ["/assets/portfolio.js"],
    styles: ["/assets/vendor/uplot.css"],
    body: html`
${signedOut}
<section aria-labelledby="h-holdings">
  <h2 id="h-holdings">Holdings</h2>
  <p class="hint">Market values use the latest <span class="badge">delayed</span> quote, with its as-of time.
  A dash means unknown (no quote), never zero.</p>
  <p id="holdings-status" role="status" aria-live="polite"></p>
  <div id="pnl"></div>
  ${dataTable("holdings-table", "Positions held", ["Symbol", "#Quantity", "#Average cost", "#Market price", "#Market value", "Quote as of", "#Unrealized P/L", "#Realized P/L", "#Dividends (net)", "#Tax withheld", "#Fractions (cash due)"], { footer: true })}
</section>
<section aria-labelledby="h-value">
  <h2 id="h-value">Value over time</h2>
  <div id="value"></div>
</section>
<section aria-labelledby="h-allocation">
  <h2 id="h-allocation">Allocation</h2>
  <div id="allocation"></div>
</section>
<section aria-labelledby="h-income">
  <h2 id="h-income">Dividend income</h2>
  <div id="income"></div>
</section>
${transactionForm}
<section aria-labelledby="h-history">
  <h2 id="h-history">Transaction history</h2>
  <p class="hint">Events are never changed or deleted: "Reverse…" records a reversal event with your reason.</p>
  <p id="history-status" role="status" aria-live="polite"></p>
  ${dataTable("history-table", "Recorded transactions, newest first", ["Trade date", "Event", "Symbol", "Details", "Recorded at", "Action"])}
  <button type="button" id="history-more" class="secondary" hidden>Show older transactions</button>
</section>`
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
  ${dataTable("events-table", "Ledger events", ["#Version", "Event", "Effective", "Recorded at", "Previous hash", "Hash", "Action"])}
  <button type="button" id="events-more" class="secondary" hidden>Show more events</button>
</section>`
  })

