/**
 * Markup shared by the page shells: the signed-out notice, an empty table a
 * script fills, a form field shown for some transaction kinds.
 */
import { Html, html } from "./Layout.ts"

export const signedOut = html`<p class="notice" id="needs-session" hidden>You are not signed in.
<a href="/start">Start a portfolio or sign in</a>.</p>`

/** Grey placeholder lines where content is on its way (replaced by the page's script). */
export const skeleton = (lines = 3, kind: "lines" | "chart" | "table" = "lines") =>
  html`<div class="skeleton skeleton-${kind}" aria-hidden="true">${
    Array.from({ length: lines }, () => html`<span></span>`)
  }</div><p class="visually-hidden loading-note">Loading…</p>`

/** An empty table the page's script fills: a hidden caption, column headers (numeric ones right-aligned); with `cards`, a card a row on a phone. */
export const dataTable = (
  id: string,
  caption: string,
  columns: ReadonlyArray<string>,
  options: { readonly footer?: boolean; readonly cards?: boolean } = {}
) =>
  html`<div class="table-wrap${
    options.cards === true ? " cards" : ""
  }" tabindex="0" role="region" aria-label="${caption}">
  <table id="${id}">
    <caption class="visually-hidden">${caption}</caption>
    <thead><tr>${
    columns.map((c) =>
      c.startsWith("#") ? html`<th scope="col" class="num">${c.slice(1)}</th>` : html`<th scope="col">${c}</th>`
    )
  }</tr></thead>
    <tbody></tbody>${options.footer === true ? html`<tfoot></tfoot>` : ""}
  </table>
  </div>`

export const field = (id: string, label: string, attrs: string, kinds: string, hint = "") =>
  html`<div class="field" data-kinds="${kinds}">
    <label for="${id}">${label}</label>
    <input id="${id}" name="${id.replace("tx-", "")}" ${attrsOf(attrs)}${
    hint === "" ? "" : html` aria-describedby="${id}-hint"`
  }>
    ${hint === "" ? "" : html`<p class="hint" id="${id}-hint">${hint}</p>`}
  </div>`
/** Attributes written in this file (never user input), kept as markup. */
const attrsOf = (attrs: string) => new Html(attrs)
