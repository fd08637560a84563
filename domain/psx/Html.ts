/**
 * The HTML tables the PSX portal serves, read with htmlparser2 (a forgiving, maintained HTML parser: no tree
 * repair, entities decoded, comments kept apart from text). It gives tables, rows and cells, the attributes on a
 * cell (`data-order` carries the clean number) and the links inside it; the portal's commented-out columns are
 * comments, so never cells.
 */
import { ElementType, parseDocument } from "htmlparser2"

export interface Cell {
  /** Visible text: tags read as spaces, entities decoded, white space collapsed. */
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

type Document = ReturnType<typeof parseDocument>
type Node = Document["children"][number]
type Element = Extract<Node, { readonly attribs: unknown }>

const isElement = (node: Node): node is Element => ElementType.isTag(node)

const elementChildren = (node: Document | Element): Array<Element> => node.children.filter(isElement)

/** Every element under `node` (not itself) in document order, not descending past `stop`. */
const descendants = (node: Document | Element, stop: (e: Element) => boolean = () => false): Array<Element> => {
  const out: Array<Element> = []
  const visit = (n: Document | Element) => {
    for (const child of elementChildren(n)) {
      out.push(child)
      if (!stop(child)) visit(child)
    }
  }
  visit(node)
  return out
}

/** The text of nodes, each tag read as a space (so `a<br>b` and `<td>a</td><td>b</td>` keep their words apart). */
const rawText = (nodes: ReadonlyArray<Node>): string => {
  let out = ""
  for (const n of nodes) {
    if (n.type === ElementType.Text) out += n.data
    else if (isElement(n)) out += ` ${rawText(n.children)} `
    else if (n.type === ElementType.CDATA) out += rawText(n.children)
  }
  return out
}

const collapse = (s: string) => s.replace(/\s+/g, " ").trim()

const parse = (html: string) => parseDocument(html, { decodeEntities: true })

/** The visible text of an HTML fragment: tags read as spaces, entities decoded, white space collapsed. */
export const textOf = (html: string): string => collapse(rawText(parse(html).children))

const hasClass = (e: Element, name: string) => (e.attribs["class"] ?? "").split(/\s+/).includes(name)

const cellOf = (cell: Element): Cell => {
  const links: Array<string> = []
  const inner: Record<string, string> = {}
  const tags: Array<string> = []
  for (const e of descendants(cell)) {
    if (e.name === "a" && e.attribs["href"] !== undefined) links.push(e.attribs["href"])
    for (const k in e.attribs) if (k.startsWith("data-") && inner[k] === undefined) inner[k] = e.attribs[k]!
    if (hasClass(e, "tag")) {
      const t = collapse(rawText(e.children)).toUpperCase()
      if (t !== "") tags.push(t)
    }
  }
  return { text: collapse(rawText(cell.children)), attrs: { ...cell.attribs }, links, inner, tags }
}

const isTable = (e: Element) => e.name === "table"

/** The rows under `node` (its own table's, not a nested table's) with their `cellName` cells; a row with none is left out. */
const rowsOf = (node: Document | Element, cellName: "th" | "td"): Array<Array<Cell>> =>
  descendants(node, isTable)
    .filter((e) => e.name === "tr")
    .map((tr) => elementChildren(tr).filter((c) => c.name === cellName).map(cellOf))
    .filter((cells) => cells.length > 0)

const tableOf = (table: Document | Element): Table => {
  const own = descendants(table, isTable)
  const head = own.find((e) => e.name === "thead")
  const body = own.find((e) => e.name === "tbody")
  return { headers: head ? (rowsOf(head, "th")[0] ?? []) : [], rows: rowsOf(body ?? table, "td") }
}

/**
 * Every table in `html`, in document order. A fragment holding only rows (as the portal's POST endpoints
 * return, a bare `<tbody>`) reads as one table.
 */
export const tables = (html: string): ReadonlyArray<Table> => {
  const document = parse(html)
  const all = descendants(document)
  const found = all.filter(isTable)
  if (found.length > 0) return found.map(tableOf)
  return all.some((e) => e.name === "tr") ? [tableOf(document)] : []
}

/** The clean number in a cell: its `data-order` when numeric, else its text. */
export const cellNumber = (cell: Cell | undefined): string | undefined => {
  if (cell === undefined) return undefined
  const order = cell.attrs["data-order"]
  if (order !== undefined && order.trim() !== "" && !Number.isNaN(Number(order))) return order
  return cell.text
}
