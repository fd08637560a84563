/**
 * A reader for the comma-separated exports in the recordings: quoted fields
 * (with doubled quotes and commas or line breaks inside), a leading byte-order
 * mark, CRLF or LF line ends. Rows come back as records keyed by the header.
 */

/** A CSV's header (the first line's column names, trimmed) and its records keyed by them. Blank lines are skipped. */
export const csvTable = (text: string): { readonly header: ReadonlyArray<string>; readonly records: Array<Record<string, string>> } => {
  const rows = csvRows(text.replace(/^\uFEFF/, ""))
  const header = (rows[0] ?? []).map((h) => h.trim())
  const records = rows.slice(1).filter((r) => r.some((c) => c.trim() !== "")).map((r) => {
    const out: Record<string, string> = {}
    header.forEach((h, i) => {
      out[h] = r[i] ?? ""
    })
    return out
  })
  return { header, records }
}

/** Every record of `text`, keyed by the first line's column names (trimmed). Blank lines are skipped. */
export const csvRecords = (text: string): Array<Record<string, string>> => csvTable(text).records

const csvRows = (text: string): Array<Array<string>> => {
  const rows: Array<Array<string>> = []
  let row: Array<string> = []
  let field = ""
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!
    if (quoted) {
      if (ch === "\"" && text[i + 1] === "\"") {
        field += "\""
        i++
      } else if (ch === "\"") quoted = false
      else field += ch
    } else if (ch === "\"" && field === "") quoted = true
    else if (ch === ",") {
      row.push(field)
      field = ""
    } else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++
      row.push(field)
      rows.push(row)
      row = []
      field = ""
    } else field += ch
  }
  if (field !== "" || row.length > 0) {
    row.push(field)
    rows.push(row)
  }
  return rows
}

/** What a header-keyed CSV reader hands back: the header it met and the known layout it names (none: nothing was read). */
export interface CsvLayoutRead {
  readonly header: ReadonlyArray<string>
  readonly layout?: string
}

/** The layout whose column names are exactly `header`'s (any order), if one is. */
export const layoutOf = <K extends string>(layouts: Readonly<Record<K, ReadonlyArray<string>>>, header: ReadonlyArray<string>): K | undefined => {
  const key = [...header].sort().join(",")
  return (Object.keys(layouts) as Array<K>).find((k) => [...layouts[k]].sort().join(",") === key)
}

/** Why a recorded CSV cannot be read, naming the file (undefined when its header is a known layout). */
export const unknownHeader = (file: string, read: CsvLayoutRead): string | undefined =>
  read.layout === undefined ? `${file}: unknown CSV header ${JSON.stringify(read.header.join(","))}` : undefined
