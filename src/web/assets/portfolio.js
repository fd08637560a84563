// @ts-check
// Portfolio page: holdings with their delayed quotes, a form recording a
// buy, sell, dividend, bonus issue or split (the API's own messages on
// rejection), and the transaction history, newest first.
/** @template [T=any] @typedef {import("./api.js").Reply<T>} Reply */
/** @template {keyof import("./api-types").operations} Op @typedef {import("./api.js").Success<Op>} Success */
import {
  $,
  api,
  badge,
  describeError,
  el,
  fillRows,
  fmtMoney,
  fmtQty,
  fmtSigned,
  fmtTime,
  randomKey,
  requireSession,
  setText,
  unknown
} from "./api.js"
import { allEvents, describeEvent, reversedIds } from "./events.js"
import { renderAllocation, renderIncome, renderValue, valueSeries } from "./portfolio-charts.js"
import { reverseAction } from "./reverse.js"
import { fact, facts } from "./ui.js"

const PAGE = 50
let cursor = null
let reversed = new Set()

const quoteCell = (h) =>
  typeof h.quote_as_of === "string"
    ? el("span", {}, el("span", { class: "nowrap" }, fmtTime(h.quote_as_of)), " ", badge("delayed"), h.quote_stale ? [" ", badge("stale", "warn")] : [])
    : unknown()

const renderHoldings = (portfolio) => {
  const rows = portfolio.holdings.map((h) => [
    el("a", { href: `/market/${encodeURIComponent(h.symbol)}` }, h.symbol),
    { cell: fmtQty(h.quantity), class: "num" },
    { cell: fmtMoney(h.average_cost), class: "num" },
    { cell: fmtMoney(h.market_price), class: "num" },
    { cell: fmtMoney(h.market_value), class: "num" },
    quoteCell(h),
    { cell: fmtSigned(h.unrealized_pnl), class: "num" },
    { cell: fmtSigned(h.realized_pnl), class: "num" },
    { cell: fmtMoney(h.dividends_net), class: "num" },
    { cell: fmtMoney(h.tax_withheld), class: "num" },
    { cell: fmtMoney(h.fractional_entitlements), class: "num" }
  ])
  const table = $("holdings-table")
  fillRows(table.querySelector("tbody"), rows)
  const t = portfolio.totals
  fillRows(table.querySelector("tfoot"), portfolio.holdings.length === 0 ? [] : [[
    "Total",
    { cell: "", class: "num" },
    { cell: el("span", {}, "cost ", fmtMoney(t.cost)), class: "num" },
    { cell: "", class: "num" },
    { cell: fmtMoney(t.market_value), class: "num" },
    t.market_value_note ?? "",
    { cell: fmtSigned(t.unrealized_pnl), class: "num" },
    { cell: fmtSigned(t.realized_pnl), class: "num" },
    { cell: fmtMoney(t.dividends_net), class: "num" },
    { cell: fmtMoney(portfolio.cash_flows?.tax_withheld), class: "num" },
    { cell: "", class: "num" }
  ]])
  setText(
    "holdings-status",
    portfolio.holdings.length === 0
      ? "No holdings yet. Record a buy below."
      : `${portfolio.holdings.length} position${portfolio.holdings.length === 1 ? "" : "s"}; total cost ${fmtMoney(t.cost)} rupees.`,
    ""
  )
}

const renderHistory = (transactions, append) => {
  fillRows(
    $("history-table").querySelector("tbody"),
    transactions.items.map((e) => {
      const d = describeEvent(e)
      const label = `${d.kind}${d.symbol ? ` ${d.symbol}` : ""} of ${e.effective_date}`
      return [{ cell: e.effective_date, class: "nowrap" }, d.kind, d.symbol ?? unknown(), d.details, { cell: fmtTime(e.recorded_at), class: "nowrap" }, reverseAction(e, label, reversed, () => load())]
    }),
    { append }
  )
  cursor = transactions.next_cursor
  $("history-more").hidden = cursor === null
  setText("history-status", transactions.total === 0 ? "Nothing recorded yet." : `${transactions.total} recorded.`, "")
}

const renderPnl = (t, flows) =>
  $("pnl").replaceChildren(
    facts(
      fact("Market value", fmtMoney(t.market_value)),
      fact("Cost", fmtMoney(t.cost)),
      fact("Unrealised P/L", fmtSigned(t.unrealized_pnl)),
      fact("Realised P/L", fmtSigned(t.realized_pnl)),
      fact("Dividends received (net)", fmtMoney(t.dividends_net)),
      fact("Dividend tax withheld", fmtMoney(flows?.tax_withheld)),
      fact("Invested", fmtMoney(flows?.invested)),
      fact("Sale proceeds", fmtMoney(flows?.proceeds))
    ),
    typeof t.tax_note === "string" ? el("p", { class: "hint" }, t.tax_note) : ""
  )

/** The charts, allocation and income: from the whole ledger, the recorded closes and /v1/me/analyze. */
const loadPictures = async (portfolio, events) => {
  /** @type {Reply<Success<"portfolio.analyze">>} */
  const analysis = await api("GET", "/v1/me/analyze")
  if (!events.ok) return $("value").replaceChildren(el("p", { class: "error" }, describeError(events.reply)))
  renderIncome($("income"), events.events, portfolio, analysis.ok ? analysis.body : undefined)
  renderAllocation($("allocation"), portfolio, analysis.ok ? analysis.body : undefined)
  renderValue($("value"), await valueSeries(events.events), analysis.ok ? analysis.body : undefined)
}

const load = async (more = false) => {
  const query = new URLSearchParams({ limit: String(PAGE) })
  if (more && cursor) query.set("cursor", cursor)
  const [reply, events] = await Promise.all([api("GET", `/v1/me/portfolio?${query}`), more ? undefined : allEvents()])
  if (!reply.ok) return setText("holdings-status", describeError(reply), "error")
  if (events?.ok) reversed = reversedIds(events.events)
  if (!more) {
    renderHoldings(reply.body)
    renderPnl(reply.body.totals, reply.body.cash_flows)
    loadPictures(reply.body, events)
  }
  renderHistory(reply.body.transactions, more)
}

// Show only the fields of the chosen kind.
const kindSelect = $("tx-kind")
const showFields = () => {
  for (const field of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("#tx-form .field[data-kinds]"))) {
    const on = (field.dataset.kinds ?? "").split(" ").includes(kindSelect.value)
    field.hidden = !on
    for (const input of /** @type {NodeListOf<HTMLInputElement>} */ (field.querySelectorAll("input, select"))) input.disabled = !on
    field.querySelector("select")?.querySelector("option")?.replaceChildren(kindSelect.value === "tax_status" ? "Choose…" : "As recorded for the portfolio")
  }
}
kindSelect.addEventListener("change", showFields)
showFields()

/** A number the API can judge: empty is left out, anything unreadable is sent as typed so the API names it. */
const numberField = (name) => {
  const raw = $(`tx-${name}`).value.trim().replaceAll(",", "")
  if (raw === "") return undefined
  const n = Number(raw)
  return Number.isFinite(n) ? n : raw
}

const FIELDS = {
  buy: ["quantity", "price", "fees"],
  sell: ["quantity", "price", "fees"],
  dividend: ["per_share", "gross_amount", "tax_withheld"],
  tax_status: [],
  bonus: ["percent"],
  split: ["numerator", "denominator"]
}

$("tx-form").addEventListener("submit", async (event) => {
  event.preventDefault()
  const kind = kindSelect.value
  const body = kind === "tax_status" ? { kind, trade_date: $("tx-trade_date").value } : { kind, symbol: $("tx-symbol").value.trim().toUpperCase(), trade_date: $("tx-trade_date").value }
  for (const name of FIELDS[kind]) {
    const v = numberField(name)
    if (v !== undefined) body[name] = v
  }
  if ((kind === "dividend" || kind === "bonus") && $("tx-book_closure_from").value) body.book_closure_from = $("tx-book_closure_from").value
  const filer = $("tx-filer").value
  if ((kind === "dividend" || kind === "tax_status") && filer !== "") body.filer = filer === "filer"
  setText("tx-error", "")
  setText("tx-result", "Recording…", "pending")
  const submit = /** @type {HTMLButtonElement} */ (/** @type {HTMLFormElement} */ (event.target).querySelector("button[type=submit]"))
  submit.disabled = true
  /** @type {Reply<Success<"portfolio.transact">>} */
  const reply = await api("POST", "/v1/me/transactions", { body, idempotencyKey: randomKey() })
  submit.disabled = false
  if (!reply.ok) {
    setText("tx-result", "", "")
    return setText("tx-error", `Not recorded. ${describeError(reply)}`)
  }
  const d = describeEvent(reply.body.event)
  // A key without portfolio:read gets only the event back: its flags are then the event's own.
  const given = reply.body.flags ?? /** @type {{ flags?: string[] } | undefined} */ (reply.body.event.payload)?.flags ?? []
  const flags = given.length ? ` Flags: ${given.join("; ")}.` : ""
  setText("tx-result", `Recorded: ${d.kind} ${d.symbol ?? ""} ${d.details} on ${reply.body.event.effective_date}.${flags}`, "ok")
  for (const name of [...Object.values(FIELDS).flat(), "book_closure_from", "filer"]) $(`tx-${name}`).value = ""
  await load()
})

$("history-more").addEventListener("click", () => load(true))

if (requireSession()) load()
