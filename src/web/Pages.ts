/**
 * The website's pages as server-rendered shells: headings, explanations,
 * labelled forms and empty tables that each page's script fills from the
 * API. Forms post to the page itself when scripts are off (so a typed token
 * never lands in an address); with scripts on they are sent as JSON with the
 * sign-in cookie and its CSRF token.
 */
import { html, renderPage } from "./Layout.ts"
import { dataTable, signedOut } from "./PageParts.ts"

const rememberBox = (id: string) =>
  html`<div class="check">
    <input type="checkbox" id="${id}" name="remember">
    <label for="${id}">Remember this device for 30 days</label>
  </div>`

/**
 * The sign-in page: start a portfolio (an anonymous session) or sign in with a token or key, optionally remembering
 * this device; and, when signed in, sign out of this browser or of every browser.
 */
export const startPage = () =>
  renderPage({
    section: "start",
    title: "Sign in",
    scripts: ["/assets/start.js"],
    body: html`
<p class="lead">Portfolio tracking and API keys for the PSX data service. No e-mail, no password: starting a
portfolio gives you a token, and that token is the way back to your portfolio on any device.
<a href="/market">See the market</a> without signing in.</p>
<section aria-labelledby="h-browser" id="browser-session" hidden>
  <h2 id="h-browser">This browser</h2>
  <p id="browser-status"></p>
  <div class="row-actions">
    <button type="button" id="end-here" class="secondary">Sign out of this device</button>
    <button type="button" id="end-everywhere" class="secondary">Sign out of every device</button>
  </div>
  <p id="end-result" role="status" aria-live="polite"></p>
</section>
<section aria-labelledby="h-new">
  <h2 id="h-new">Start a portfolio</h2>
  <p>A new anonymous user with a token holding both portfolio grants. Nothing else about you is stored.</p>
  ${rememberBox("new-remember")}
  <button type="button" id="create-session">Start a portfolio</button>
  <p id="create-error" class="error" role="alert"></p>
  <div id="new-session" class="once" hidden>
    <h3 id="h-save">Save this token now</h3>
    <p><strong>It is shown once.</strong> The service keeps only a hash of it and cannot show it again or
    recover it. Store it in a password manager: it signs you in on another device, and anyone holding it can read
    and change your portfolio.</p>
    <div id="token-box">
      <label for="new-token">Your token</label>
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
    <p id="next-steps" hidden>Next: <a href="/portfolio">record a transaction</a> or
    <a href="/portfolio#h-import">import a broker statement</a>.</p>
  </div>
</section>
<section aria-labelledby="h-resume">
  <h2 id="h-resume">Sign in with a token</h2>
  <form id="resume-form" method="post" autocomplete="off">
    <label for="resume-token">Token or API key</label>
    <input id="resume-token" name="token" type="password" required spellcheck="false">
    ${rememberBox("resume-remember")}
    <button type="submit">Sign in</button>
  </form>
  <p id="resume-result" role="status" aria-live="polite"></p>
</section>
<section aria-labelledby="h-kept">
  <h2 id="h-kept">How the sign-in is kept</h2>
  <p>Signing in sets one cookie that scripts cannot read (HttpOnly), sent only to this site (SameSite=Strict; Secure
  over HTTPS). It lasts until the browser closes and at most 12 hours, or 30 days when you tick "remember this
  device". Every change you make carries a token the site checks, so another site cannot act for you. Your token
  is never stored by the page. "Sign out of every device" ends every browser signed in to this portfolio; the
  token itself keeps working.</p>
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
  ${
      dataTable("keys-table", "Keys and sessions of this user", [
        "Name",
        "Kind",
        "Prefix",
        "Grants",
        "Created",
        "Last used",
        "Status",
        "Action"
      ], { cards: true })
    }
</section>`
  })

export const donatePage = () =>
  renderPage({
    section: "donate",
    title: "Donate",
    scripts: ["/assets/donate.js"],
    body: html`
<p class="lead">The service is free. If it helps you, you can pledge a donation in rupees.</p>
<section aria-labelledby="h-pending">
  <h2 id="h-pending">What "pending" means</h2>
  <p>This page <strong>takes no payment</strong> and asks for no card or bank detail. It records your pledge as an
  event in the donations ledger with the status <strong>pending</strong>: an amount you intend to give, not money
  received. Nothing is charged, and no one will contact you, since no contact detail is asked for. Keep the
  reference below if you later pay by the means the maintainers publish; the record itself never changes (events
  are immutable).</p>
</section>
<section aria-labelledby="h-pledge">
  <h2 id="h-pledge">Record a pending donation</h2>
  <form id="donate-form" method="post" novalidate autocomplete="off">
    <label for="donate-amount">Amount (rupees)</label>
    <input id="donate-amount" name="amount" inputmode="decimal" required aria-describedby="donate-amount-hint">
    <p class="hint" id="donate-amount-hint">More than 0 and at most 10,000,000, with at most two decimals.</p>
    <label for="donate-note">Note (optional)</label>
    <input id="donate-note" name="note" maxlength="500">
    <button type="submit">Record the pending donation</button>
  </form>
  <p id="donate-error" class="error" role="alert"></p>
  <div id="donate-result" role="status" aria-live="polite"></div>
</section>`
  })

/** The page a person's browser gets for a path the site does not have. */
export const notFoundPage = (path: string) =>
  renderPage({
    section: "none",
    title: "Page not found",
    scripts: [],
    body: html`
<p class="lead">There is no page at <code>${path.length > 200 ? `${path.slice(0, 200)}…` : path}</code>.</p>
<ul>
  <li><a href="/">Home</a>: your portfolio, or a new session</li>
  <li><a href="/market">The market board</a>, or search for a ticker at the top of this page</li>
  <li><a href="/docs">The API reference</a>: API clients get a JSON error record for this path</li>
</ul>`
  })
