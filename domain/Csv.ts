/**
 * The one reader of comma-separated text: Effect's RFC 4180 decoder (`effect/encoding` Csv), run over a text
 * already in memory. Quoted fields with doubled quotes, commas and line breaks inside; records end in CRLF, LF or
 * CR; a leading byte-order mark is dropped. A quote inside an unquoted field, text after a closing quote and an
 * unterminated quote are problems naming the record's first line, never guessed around.
 *
 * Used by the reader of the recordings (domain/psx/Csv.ts) and by the ledger's import of uploaded files
 * (domain/ledger/csv/Rfc4180.ts), which adds its own bounds and refusals.
 */
import { Cause, Effect, Exit, Option, Stream } from "effect"
import { Csv } from "effect/encoding"

export interface CsvRecords {
  readonly _tag: "Ok"
  /** Every record in order, blank lines included (as one empty cell), so record `i` starts on line `i + 1` unless a quoted cell spans lines. */
  readonly records: ReadonlyArray<ReadonlyArray<string>>
}

export interface CsvSyntaxProblem {
  readonly _tag: "Problem"
  /** The line the record starts on (1-based). */
  readonly line: number
  /** The cell (1-based) of a syntax problem; absent for a record over the size bound. */
  readonly cell?: number
  readonly kind: "quote in an unquoted cell" | "text after a closing quote" | "unterminated quote" | "record too long"
}

const kindOf = (e: Csv.CsvError): CsvSyntaxProblem["kind"] =>
  e.kind === "RecordSize"
    ? "record too long"
    : /unquoted/i.test(e.message)
    ? "quote in an unquoted cell"
    : /after a closing quote/i.test(e.message)
    ? "text after a closing quote"
    : "unterminated quote"

/** Every record of `text`, or the first syntax problem. `maxRecordSize` bounds one record's characters (default 1 MiB). */
export const readCsv = (text: string, maxRecordSize?: number): CsvRecords | CsvSyntaxProblem => {
  const exit = Stream.make(text).pipe(
    Stream.pipeThroughChannel(Csv.decodeString(maxRecordSize === undefined ? {} : { maxRecordSize })),
    Stream.runCollect,
    Effect.runSyncExit
  )
  if (Exit.isSuccess(exit)) return { _tag: "Ok", records: exit.value }
  const error = Option.getOrUndefined(Cause.findErrorOption(exit.cause))
  if (error === undefined) throw Cause.squash(exit.cause)
  return {
    _tag: "Problem",
    line: error.line,
    kind: kindOf(error),
    ...(error.column !== undefined ? { cell: error.column } : {})
  }
}
