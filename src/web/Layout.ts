/**
 * The frame every page of the website shares: document head, skip link,
 * header with the site navigation, the footer's links (ledger, keys, API reference),
 * the main landmark and the footer. Pages are server-rendered shells; the
 * page's own module script (same origin, no inline code) fills them in.
 */

/** Text made safe for HTML element content and attribute values. */
export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;" })[c] ?? c)

/** Safe markup: plain strings interpolated into it are escaped, nested `html` values are kept. */
export class Html {
  readonly markup: string
  constructor(markup: string) {
    this.markup = markup
  }
}

export const html = (
  strings: TemplateStringsArray,
  ...values: ReadonlyArray<Html | string | number | ReadonlyArray<Html>>
) =>
  new Html(strings.reduce((out, part, i) => {
    if (i === 0) return part
    const v = values[i - 1]!
    const text = v instanceof Html
      ? v.markup
      : Array.isArray(v)
      ? v.map((h: Html) => h.markup).join("")
      : escapeHtml(String(v))
    return out + text + part
  }, ""))

export type Section =
  | "start"
  | "keys"
  | "portfolio"
  | "tax"
  | "ledger"
  | "market"
  | "screener"
  | "compare"
  | "donate"
  | "none"

/** What people open most; the ledger, API keys and the API reference are in the footer. */
const NAV: ReadonlyArray<{ readonly id: Section; readonly href: string; readonly label: string }> = [
  { id: "portfolio", href: "/portfolio", label: "Portfolio" },
  { id: "tax", href: "/portfolio/tax", label: "Tax year" },
  { id: "market", href: "/market", label: "Market" },
  { id: "screener", href: "/screener", label: "Screener" },
  { id: "compare", href: "/compare", label: "Compare" },
  { id: "donate", href: "/donate", label: "Donate" }
]

export interface PageSpec {
  readonly section: Section
  readonly title: string
  /** Module scripts under /assets/, in order. */
  readonly scripts: ReadonlyArray<string>
  readonly styles?: ReadonlyArray<string>
  /** The heading, when it differs from the title. */
  readonly heading?: Html
  readonly body: Html
}

/** The site's header: the brand, a search box on every page, the session control, the navigation (a scrolling row on a phone). */
const header = (section: Section) => {
  const nav = NAV.map((item) =>
    item.id === section
      ? html`<li><a href="${item.href}" aria-current="page">${item.label}</a></li>`
      : html`<li><a href="${item.href}">${item.label}</a></li>`
  )
  return html`<header class="site">
  <a class="brand" href="/"><span class="brand-mark" aria-hidden="true">PSX</span><span class="brand-name">PSX data service</span></a>
  <form class="site-search" role="search" aria-label="Site search" method="get" action="/market" autocomplete="off">
    <label for="site-search" class="visually-hidden">Find a company or ticker</label>
    <input id="site-search" name="q" type="search" placeholder="Ticker or name" list="site-search-list" spellcheck="false" autocapitalize="characters">
    <datalist id="site-search-list"></datalist>
    <button type="submit" class="icon">Search</button>
  </form>
  <div class="session">
    <span id="session-status" role="status" aria-live="polite" class="visually-hidden"></span>
    <a id="sign-in" href="/start">Sign in</a>
    <button type="button" id="sign-out" class="secondary small" title="Sign out of this browser" hidden>Sign out</button>
  </div>
  <nav aria-label="Site">
    <ul>${nav}</ul>
  </nav>
</header>`
}

const footer = html`<footer class="site">
  <p>Quotes are delayed, never live. No order is ever placed; no broker is attached.
  Absent figures are unknown, never zero. Times are Karachi time (PKT).</p>
  <p><a href="/ledger">Ledger and its check</a> · <a href="/keys">API keys</a> · <a href="/start">Sign-in</a> ·
  <a href="/docs">API reference</a> · <a href="/openapi.json">OpenAPI document</a></p>
  <p class="setting"><label for="grouping">Digit grouping</label>
  <select id="grouping"><option value="intl">12,345,678 (international)</option><option value="lakh">1,23,45,678 (lakh and crore)</option></select></p>
</footer>`

export const renderPage = (page: PageSpec) => {
  const styles = ["/assets/site.css", "/assets/components.css", ...(page.styles ?? [])].map((href) =>
    html`<link rel="stylesheet" href="${href}">`
  )
  const scripts = ["/assets/site.js", ...page.scripts].map((src) => html`<script type="module" src="${src}"></script>`)
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${page.title} · PSX data service</title>
<link rel="icon" href="/assets/favicon.svg" type="image/svg+xml">
${styles}
${scripts}
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
${header(page.section)}
<main id="main" tabindex="-1">
<h1>${page.heading ?? page.title}</h1>
<noscript><p class="notice">These pages need JavaScript from this service (nothing is loaded from elsewhere).
The API itself works without it: see the <a href="/docs">API reference</a>.</p></noscript>
${page.body}
</main>
${footer}
</body>
</html>
`.markup
}
