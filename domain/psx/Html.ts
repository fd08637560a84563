/**
 * A small, forgiving reader for the HTML tables the PSX portal serves. It
 * knows tables, rows and cells, the attributes on a cell (`data-order`
 * carries the clean number) and the links inside it; it drops comments
 * (the portal ships commented-out columns) and decodes entities.
 */

export interface Cell {
  /** Visible text: tags removed, entities decoded, white space collapsed. */
  readonly text: string
  /** Attributes of the `<td>`/`<th>` itself. */
  readonly attrs: Readonly<Record<string, string>>
  /** `href` of links inside the cell. */
  readonly links: ReadonlyArray<string>
  /** `data-*` attributes of elements inside the cell (e.g. `data-title`, `data-images`). */
  readonly inner: Readonly<Record<string, string>>
  /** Text of the portal's markers inside the cell (`<div class="tag …">REVOKED</div>`), upper-cased. */
  readonly tags: ReadonlyArray<string>
}

export interface Table {
  readonly headers: ReadonlyArray<Cell>
  readonly rows: ReadonlyArray<ReadonlyArray<Cell>>
}

const entities: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: "\"", apos: "'", nbsp: " ", "#39": "'" }

export const decodeEntities = (s: string): string =>
  s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+\d*);/gi, (m, e: string) => {
    if (e[0] === "#") {
      const code = e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10)
      return Number.isFinite(code) ? String.fromCodePoint(code) : m
    }
    return entities[e.toLowerCase()] ?? m
  })

export const textOf = (html: string): string =>
  decodeEntities(html.replace(/<br\s*\/?>/gi, " ").replace(/<[^>]*>/g, " ")).replace(/\s+/g, " ").trim()

const attrsOf = (tag: string): Record<string, string> => {
  const out: Record<string, string> = {}
  for (const m of tag.matchAll(/([a-zA-Z_:][-a-zA-Z0-9_:.]*)\s*=\s*("([^"]*)"|'([^']*)'|([^\s>]+))/g)) {
    out[m[1]!.toLowerCase()] = decodeEntities(m[3] ?? m[4] ?? m[5] ?? "")
  }
  return out
}

const cellOf = (open: string, body: string): Cell => {
  const links: Array<string> = []
  const inner: Record<string, string> = {}
  for (const m of body.matchAll(/<([a-z][a-z0-9]*)\b([^>]*)>/gi)) {
    const a = attrsOf(m[2] ?? "")
    if (m[1]!.toLowerCase() === "a" && a["href"] !== undefined) links.push(a["href"])
    for (const k in a) if (k.startsWith("data-") && inner[k] === undefined) inner[k] = a[k]!
  }
  const tags = [...body.matchAll(/<([a-z][a-z0-9]*)\b[^>]*\bclass\s*=\s*"(?:[^"]*\s)?tag(?:\s[^"]*)?"[^>]*>([\s\S]*?)<\/\1>/gi)]
    .map((m) => textOf(m[2]!).toUpperCase())
    .filter((t) => t !== "")
  return { text: textOf(body), attrs: attrsOf(open), links, inner, tags }
}

const stripComments = (html: string) => html.replace(/<!--[\s\S]*?-->/g, "")

const rowsOf = (html: string, cellTag: "td|th" | "th" | "td") => {
  const rows: Array<Array<Cell>> = []
  for (const tr of html.matchAll(/<tr\b[^>]*>([\s\S]*?)(?=<tr\b|<\/tbody|<\/thead|<\/table|$)/gi)) {
    const cells: Array<Cell> = []
    const re = new RegExp(`<(${cellTag})\\b([^>]*)>([\\s\\S]*?)<\\/\\1>`, "gi")
    for (const c of tr[1]!.matchAll(re)) cells.push(cellOf(c[2] ?? "", c[3] ?? ""))
    if (cells.length > 0) rows.push(cells)
  }
  return rows
}

/**
 * Every table in `html`, in document order. A fragment holding only a
 * `<tbody>` (as the portal's POST endpoints return) reads as one table.
 */
export const tables = (html: string): ReadonlyArray<Table> => {
  const clean = stripComments(html)
  const found = [...clean.matchAll(/<table\b[^>]*>([\s\S]*?)<\/table>/gi)].map((m) => m[1]!)
  const sources = found.length > 0 ? found : clean.includes("<tr") ? [clean] : []
  return sources.map((t) => {
    const head = /<thead\b[^>]*>([\s\S]*?)<\/thead>/i.exec(t)
    const headers = head ? (rowsOf(head[1]!, "th")[0] ?? []) : []
    const body = /<tbody\b[^>]*>([\s\S]*?)(<\/tbody>|$)/i.exec(t)
    return { headers, rows: rowsOf(body ? body[1]! : t, "td") }
  })
}

/** The clean number in a cell: its `data-order` when numeric, else its text. */
export const cellNumber = (cell: Cell | undefined): string | undefined => {
  if (cell === undefined) return undefined
  const order = cell.attrs["data-order"]
  if (order !== undefined && order.trim() !== "" && !Number.isNaN(Number(order))) return order
  return cell.text
}
