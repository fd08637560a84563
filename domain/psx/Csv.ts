/**
 * The comma-separated exports in the recordings, read by the one CSV reader (domain/Csv.ts: RFC 4180, a leading
 * byte-order mark, CRLF, LF or CR line ends), as records keyed by the header. A recording that is not RFC 4180 is
 * refused with its line (none of the recorded files is).
 */
import { readCsv } from "../Csv.ts"

/** A CSV's header (the first line's column names, trimmed) and its records keyed by them. Blank lines are skipped. */
export const csvTable = (
  text: string
): { readonly header: ReadonlyArray<string>; readonly records: Array<Record<string, string>> } => {
  const read = readCsv(text)
  if (read._tag === "Problem") throw new Error(`not RFC 4180 CSV: ${read.kind} on line ${read.line}`)
  const header = (read.records[0] ?? []).map((h) => h.trim())
  const records = read.records.slice(1).filter((r) => r.some((c) => c.trim() !== "")).map((r) => {
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

/** What a header-keyed CSV reader hands back: the header it met and the known layout it names (none: nothing was read). */
export interface CsvLayoutRead {
  readonly header: ReadonlyArray<string>
  readonly layout?: string
}

/** The layout whose column names are exactly `header`'s (any order), if one is. */
export const layoutOf = <K extends string>(
  layouts: Readonly<Record<K, ReadonlyArray<string>>>,
  header: ReadonlyArray<string>
): K | undefined => {
  const key = [...header].sort().join(",")
  return (Object.keys(layouts) as Array<K>).find((k) => [...layouts[k]].sort().join(",") === key)
}

/** Why a recorded CSV cannot be read, naming the file (undefined when its header is a known layout). */
export const unknownHeader = (file: string, read: CsvLayoutRead): string | undefined =>
  read.layout === undefined ? `${file}: unknown CSV header ${JSON.stringify(read.header.join(","))}` : undefined
