/**
 * The frame every page of the website shares: document head, skip link,
 * header with the site navigation (the API reference `/docs` included),
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

export const html = (strings: TemplateStringsArray, ...values: ReadonlyArray<Html | string | number | ReadonlyArray<Html>>) =>
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

export type Section = "start" | "keys" | "portfolio" | "ledger" | "market" | "screener" | "compare" | "donate"

const NAV: ReadonlyArray<{ readonly id: Section; readonly href: string; readonly label: string }> = [
  { id: "start", href: "/", label: "Start" },
  { id: "keys", href: "/keys", label: "Keys" },
  { id: "portfolio", href: "/portfolio", label: "Portfolio" },
  { id: "ledger", href: "/ledger", label: "Ledger" },
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
  readonly body: Html
}

export const renderPage = (page: PageSpec) => {
  const nav = NAV.map((item) =>
    item.id === page.section
      ? html`<li><a href="${item.href}" aria-current="page">${item.label}</a></li>`
      : html`<li><a href="${item.href}">${item.label}</a></li>`
  )
  const styles = ["/assets/site.css", ...(page.styles ?? [])].map((href) => html`<link rel="stylesheet" href="${href}">`)
  const scripts = page.scripts.map((src) => html`<script type="module" src="${src}"></script>`)
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${page.title} · PSX data service</title>
${styles}
${scripts}
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="site">
  <div class="brand"><a href="/">PSX data service</a></div>
  <nav aria-label="Site">
    <ul>${nav}<li><a href="/docs">API reference</a></li></ul>
  </nav>
  <div class="session">
    <span id="session-status" role="status" aria-live="polite"></span>
    <button type="button" id="sign-out" class="secondary" hidden>Forget token</button>
  </div>
</header>
<main id="main" tabindex="-1">
<h1>${page.title}</h1>
<noscript><p class="notice">These pages need JavaScript from this service (nothing is loaded from elsewhere).
The API itself works without it: see the <a href="/docs">API reference</a>.</p></noscript>
${page.body}
</main>
<footer class="site">
  <p>Quotes are delayed, never live. No order is ever placed; no broker is attached.
  Absent figures are unknown, never zero. <a href="/docs">API reference</a> · <a href="/openapi.json">OpenAPI document</a></p>
</footer>
</body>
</html>
`.markup
}
