/**
 * The website's pages as server-rendered shells: headings, explanations,
 * labelled forms and empty tables that each page's script fills from the
 * API. Forms post to the page itself when scripts are off (so a typed token
 * never lands in an address); with scripts on they are sent as JSON with
 * `Authorization: Bearer`.
 */
import { Html, html, renderPage } from "./Layout.ts"

const signedOut = html`<p class="notice" id="needs-session" hidden>There is no session in this tab.
<a href="/">Create or resume one on the Start page</a>; the token stays in this tab only.</p>`

/** An empty table the page's script fills: a hidden caption, column headers (numeric ones right-aligned). */
const dataTable = (id: string, caption: string, columns: ReadonlyArray<string>, options: { readonly footer?: boolean } = {}) =>
  html`<div class="table-wrap" tabindex="0" role="region" aria-label="${caption}">
  <table id="${id}">
    <caption class="visually-hidden">${caption}</caption>
    <thead><tr>${
    columns.map((c) => c.startsWith("#") ? html`<th scope="col" class="num">${c.slice(1)}</th>` : html`<th scope="col">${c}</th>`)
  }</tr></thead>
    <tbody></tbody>${options.footer === true ? html`<tfoot></tfoot>` : ""}
  </table>
  </div>`

export const startPage = () =>
  renderPage({
    section: "start",
    title: "Start",
    scripts: ["/assets/start.js"],
    body: html`
<p class="lead">Portfolio tracking and API keys for the PSX data service. No e-mail, no password: an anonymous
session gives you a token, and that token is the only way back to your portfolio.</p>
<section aria-labelledby="h-new">
  <h2 id="h-new">Create an anonymous session</h2>
  <p>A new user and a session token with both portfolio grants. Nothing else about you is stored.</p>
  <button type="button" id="create-session">Create a session</button>
  <p id="create-error" class="error" role="alert"></p>
  <div id="new-session" class="once" hidden>
    <h3 id="h-save">Save this token now</h3>
    <p><strong>It is shown once.</strong> The service keeps only a hash of it and cannot show it again or
    recover it. Store it in a password manager; anyone holding it can read and change your portfolio.</p>
    <div id="token-box">
      <label for="new-token">Your session token</label>
      <div class="copy-row">
        <input id="new-token" class="secret" readonly autocomplete="off" spellcheck="false">
        <button type="button" data-copy="new-token">Copy token</button>
      </div>
    </div>
    <p class="copy-status" role="status" aria-live="polite"></p>
    <div class="check">
      <input type="checkbox" id="saved-ack">
      <label for="saved-ack">I have saved this token somewhere safe</label>
    </div>
    <p id="next-steps" hidden>Next: <a href="/keys">create an API key</a> for your agent, or
    <a href="/portfolio">record a transaction</a>.</p>
  </div>
</section>
<section aria-labelledby="h-resume">
  <h2 id="h-resume">Resume with a token</h2>
  <form id="resume-form" method="post" autocomplete="off">
    <label for="resume-token">Session token or API key</label>
    <input id="resume-token" name="token" type="password" required spellcheck="false">
    <button type="submit">Resume</button>
  </form>
  <p id="resume-result" role="status" aria-live="polite"></p>
</section>
<section aria-labelledby="h-kept">
  <h2 id="h-kept">Where the token is kept</h2>
  <p>Only in this browser tab's session storage. It is sent only in the <code>Authorization: Bearer</code>
  header of requests to this service, never in an address, a cookie or a log. Closing the tab forgets it.</p>
  <button type="button" id="forget" class="secondary">Forget the token in this tab</button>
</section>`
  })

export const keysPage = () =>
  renderPage({
    section: "keys",
    title: "API keys",
    scripts: ["/assets/keys.js"],
    body: html`
${signedOut}
<p class="lead">Keys let an agent call the API for you. Every key reads market data; portfolio access is a grant
you choose. Keys are managed with your session token.</p>
<section aria-labelledby="h-create">
  <h2 id="h-create">Create a key</h2>
  <form id="key-form" method="post" autocomplete="off">
    <label for="key-label">Name</label>
    <input id="key-label" name="label" maxlength="100" aria-describedby="key-label-hint">
    <p class="hint" id="key-label-hint">So you can tell your keys apart, e.g. "research agent".</p>
    <fieldset>
      <legend>Grants</legend>
      <div class="check">
        <input type="checkbox" id="grant-read" name="grant" value="portfolio:read" checked>
        <label for="grant-read"><code>portfolio:read</code>: read holdings, portfolio and ledger</label>
      </div>
      <div class="check">
        <input type="checkbox" id="grant-write" name="grant" value="portfolio:write">
        <label for="grant-write"><code>portfolio:write</code>: record transactions</label>
      </div>
    </fieldset>
    <button type="submit">Create key</button>
  </form>
  <p id="key-error" class="error" role="alert"></p>
  <div id="new-key" class="once" hidden>
    <h3>Copy the key now</h3>
    <p><strong>It is shown once</strong>; only a hash is stored.</p>
    <label for="new-key-value">New key</label>
    <div class="copy-row">
      <input id="new-key-value" class="secret" readonly autocomplete="off" spellcheck="false">
      <button type="button" data-copy="new-key-value">Copy key</button>
    </div>
    <p class="copy-status" role="status" aria-live="polite"></p>
  </div>
</section>
<section aria-labelledby="h-list">
  <h2 id="h-list">Your keys and sessions</h2>
  <p id="keys-status" role="status" aria-live="polite"></p>
  ${dataTable("keys-table", "Keys and sessions of this user", ["Name", "Kind", "Prefix", "Grants", "Created", "Last used", "Status", "Action"])}
</section>`
  })

const field = (id: string, label: string, attrs: string, kinds: string, hint = "") =>
  html`<div class="field" data-kinds="${kinds}">
    <label for="${id}">${label}</label>
    <input id="${id}" name="${id.replace("tx-", "")}" ${attrsOf(attrs)}${hint === "" ? "" : html` aria-describedby="${id}-hint"`}>
    ${hint === "" ? "" : html`<p class="hint" id="${id}-hint">${hint}</p>`}
  </div>`
/** Attributes written in this file (never user input), kept as markup. */
const attrsOf = (attrs: string) => new Html(attrs)

export const portfolioPage = () =>
  renderPage({
    section: "portfolio",
    title: "Portfolio",
    scripts: ["/assets/portfolio.js"],
    body: html`
${signedOut}
<section aria-labelledby="h-holdings">
  <h2 id="h-holdings">Holdings</h2>
  <p class="hint">Market values use the latest <span class="badge">delayed</span> quote, with its as-of time.
  A dash means unknown (no quote), never zero.</p>
  <p id="holdings-status" role="status" aria-live="polite"></p>
  ${dataTable("holdings-table", "Positions held", ["Symbol", "#Quantity", "#Average cost", "#Market price", "#Market value", "Quote as of", "#Unrealized P/L", "#Realized P/L", "#Dividends (net)"], { footer: true })}
</section>
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
      </select>
    </div>
    ${field("tx-symbol", "Symbol", `required autocapitalize="characters" spellcheck="false"`, "buy sell dividend bonus split")}
    ${field("tx-trade_date", "Trade date", `type="date" required`, "buy sell dividend bonus split", "For a dividend, the payment date.")}
    ${field("tx-quantity", "Quantity (shares)", `inputmode="decimal" required`, "buy sell")}
    ${field("tx-price", "Price (rupees per share)", `inputmode="decimal" required`, "buy sell")}
    ${field("tx-fees", "Fees (rupees, optional)", `inputmode="decimal"`, "buy sell", "Brokerage, taxes and charges; 0 when left empty.")}
    ${field("tx-per_share", "Dividend per share (rupees)", `inputmode="decimal"`, "dividend", "Or give the gross amount instead.")}
    ${field("tx-gross_amount", "Gross amount (rupees)", `inputmode="decimal"`, "dividend")}
    ${field("tx-tax_withheld", "Tax withheld (rupees, optional)", `inputmode="decimal"`, "dividend")}
    ${field("tx-percent", "Bonus percent", `inputmode="decimal" required`, "bonus", "As the exchange states it: 10 means one new share for every ten held.")}
    ${field("tx-numerator", "New shares", `inputmode="numeric" required`, "split", "5 for 1: new shares 5, old shares 1.")}
    ${field("tx-denominator", "For old shares", `inputmode="numeric" required`, "split")}
    <button type="submit">Record</button>
  </form>
  <p id="tx-error" class="error" role="alert"></p>
  <div id="tx-result" role="status" aria-live="polite"></div>
</section>
<section aria-labelledby="h-history">
  <h2 id="h-history">Transaction history</h2>
  <p id="history-status" role="status" aria-live="polite"></p>
  ${dataTable("history-table", "Recorded transactions, newest first", ["Trade date", "Event", "Symbol", "Details", "Recorded at"])}
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
<section aria-labelledby="h-events">
  <h2 id="h-events">Events</h2>
  <p id="events-status" role="status" aria-live="polite"></p>
  ${dataTable("events-table", "Ledger events", ["#Version", "Event", "Effective", "Recorded at", "Previous hash", "Hash"])}
  <button type="button" id="events-more" class="secondary" hidden>Show more events</button>
</section>`
  })

export const marketPage = () =>
  renderPage({
    section: "market",
    title: "Market",
    scripts: ["/assets/market.js"],
    body: html`
<section aria-labelledby="h-board">
  <h2 id="h-board">Market board</h2>
  <p id="market-status" role="status" aria-live="polite"></p>
  <p class="hint">From the delayed feed. Movers leave out lines that traded under one million rupees.</p>
  <div id="board"></div>
</section>
<section aria-labelledby="h-search">
  <h2 id="h-search">Find a company</h2>
  <form id="search-form" method="get" action="/market" role="search">
    <label for="search-q">Company name or ticker</label>
    <input id="search-q" name="q" type="search" spellcheck="false">
    <button type="submit">Search</button>
  </form>
  <p id="search-count" role="status" aria-live="polite"></p>
  <div id="search-results"></div>
</section>`
  })

export const symbolPage = (symbol: string) =>
  renderPage({
    section: "market",
    title: symbol,
    scripts: ["/assets/symbol.js"],
    styles: ["/assets/vendor/uplot.css"],
    body: html`
<p><a href="/market">Back to the market board</a></p>
<section aria-labelledby="h-quote" data-symbol="${symbol}" id="symbol-root">
  <h2 id="h-quote">Quote</h2>
  <div id="quote"></div>
</section>
<section aria-labelledby="h-chart">
  <h2 id="h-chart">Price history</h2>
  <div class="ranges" role="group" aria-label="Price range">
    ${["1M", "3M", "6M", "1Y", "5Y", "MAX"].map((r) => html`<button type="button" class="range" data-range="${r}" aria-pressed="${r === "1Y" ? "true" : "false"}">${r}</button>`)}
  </div>
  <figure>
    <div id="chart" class="chart"></div>
    <figcaption id="chart-caption"></figcaption>
  </figure>
  <div id="window"></div>
</section>`
  })
