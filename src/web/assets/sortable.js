// @ts-check
// Sortable tables: each column heading becomes a button; a click sorts the
// rows by that column (numbers by value, text alphabetically), a second
// click reverses it, and `aria-sort` tells assistive technology. A cell's
// `data-sort` holds its value (empty: unknown, always last); a row marked
// `data-detail` stays under the row before it.

/** @param {HTMLTableCellElement | undefined} cell */
const keyOf = (cell) => {
  if (!cell) return { unknown: true, n: 0, s: "" }
  const raw = cell.dataset.sort ?? cell.textContent?.trim() ?? ""
  if (raw === "" || raw === "—") return { unknown: true, n: 0, s: "" }
  const n = Number(raw.replaceAll(",", "").replace("−", "-").replace(/%$/, ""))
  return { unknown: false, n, s: raw.toLowerCase() }
}

/**
 * @param {HTMLTableElement} table
 * @param {{ skip?: number[], onSort?: (column: number, direction: "ascending" | "descending") => void }} [options]
 */
export const sortable = (table, options = {}) => {
  const heads = Array.from(table.tHead?.rows[0]?.cells ?? [])
  const body = table.tBodies[0]
  if (!body) return
  heads.forEach((th, column) => {
    if (options.skip?.includes(column) || (th.textContent ?? "").trim() === "") return
    const button = document.createElement("button")
    button.type = "button"
    button.className = "sort"
    button.append(...th.childNodes)
    th.replaceChildren(button)
    button.addEventListener("click", () => {
      const numeric = Array.from(body.rows).some((r) => !keyOf(r.cells[column]).unknown && !Number.isNaN(keyOf(r.cells[column]).n))
      const current = th.getAttribute("aria-sort")
      /** @type {"ascending" | "descending"} */
      const direction = current === "ascending" ? "descending" : current === "descending" ? "ascending" : numeric ? "descending" : "ascending"
      for (const other of heads) other.removeAttribute("aria-sort")
      th.setAttribute("aria-sort", direction)
      sortRows(body, column, direction)
      options.onSort?.(column, direction)
    })
  })
}

/** @param {HTMLTableSectionElement} body @param {number} column @param {"ascending" | "descending"} direction */
const sortRows = (body, column, direction) => {
  /** @type {HTMLTableRowElement[][]} */
  const groups = []
  for (const row of Array.from(body.rows)) {
    if (row.dataset.detail !== undefined && groups.length) groups[groups.length - 1]?.push(row)
    else groups.push([row])
  }
  const sign = direction === "ascending" ? 1 : -1
  groups.sort((a, b) => {
    const x = keyOf(a[0]?.cells[column]), y = keyOf(b[0]?.cells[column])
    if (x.unknown || y.unknown) return x.unknown === y.unknown ? 0 : x.unknown ? 1 : -1
    const byNumber = !Number.isNaN(x.n) && !Number.isNaN(y.n)
    return sign * (byNumber ? x.n - y.n : x.s.localeCompare(y.s))
  })
  body.append(...groups.flat())
}
