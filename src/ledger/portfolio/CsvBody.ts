/**
 * The body of a CSV upload as text, and the export as an answer. The body is
 * bounded in bytes (by its declared length before a byte is read, and while
 * it streams). Its charset is the Content-Type's: UTF-8 when none is named
 * (strict: a byte that is not UTF-8 refuses the file), latin1, ISO-8859-1 or
 * windows-1252 (what a spreadsheet saves as "CSV" on Windows) converted as
 * WHATWG's decoder reads them; a byte-order mark decides over the label, as
 * in a browser. Any other charset is refused (400), never guessed.
 */
import { Effect, Stream } from "effect"
import { HttpServerResponse } from "effect/http"
import { InvalidRequest } from "../../../domain/Errors.ts"
import { IMPORT_LIMITS } from "../../../domain/ledger/csv/Columns.ts"

const TOO_LARGE = `the CSV body is over ${IMPORT_LIMITS.bytes.toLocaleString("en")} bytes; nothing was recorded`

/** The encoding a Content-Type's charset names (WHATWG labels), or the charset refused. */
const encodingOf = (
  contentType: string | undefined
): { readonly encoding: "utf-8" | "windows-1252" } | { readonly refused: string } => {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)"?/iu.exec(contentType ?? "")?.[1]
  if (charset === undefined) return { encoding: "utf-8" }
  let encoding: string
  try {
    encoding = new TextDecoder(charset).encoding
  } catch {
    encoding = ""
  }
  return encoding === "utf-8" || encoding === "windows-1252" ? { encoding } : { refused: charset.slice(0, 40) }
}

const decode = (bytes: Uint8Array, encoding: "utf-8" | "windows-1252"): string | undefined => {
  const utf8Bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf
  try {
    // Keeps a UTF-8 byte-order mark in the text: the CSV reader drops it (and refuses one anywhere else).
    return new TextDecoder(utf8Bom ? "utf-8" : encoding, { fatal: true, ignoreBOM: true }).decode(bytes)
  } catch {
    return undefined
  }
}

/** The request body as text (see the module comment), or the 400 that refuses it. */
export const readCsvBody = (
  body: Stream.Stream<Uint8Array, unknown>,
  declared: string | undefined,
  contentType: string | undefined
): Effect.Effect<string, InvalidRequest> =>
  Effect.gen(function*() {
    if (declared !== undefined && Number(declared) > IMPORT_LIMITS.bytes) {
      return yield* new InvalidRequest({ message: TOO_LARGE })
    }
    const charset = encodingOf(contentType)
    if ("refused" in charset) {
      return yield* new InvalidRequest({
        message: `charset ${
          JSON.stringify(charset.refused)
        } is not read: send the CSV as UTF-8 (or latin1/windows-1252); nothing was recorded`
      })
    }
    const chunks: Array<Uint8Array> = []
    let total = 0
    // A body the platform cannot read is a defect, as for any buffered body.
    yield* Stream.runForEachArray(Stream.orDie(body), (array) => {
      for (const chunk of array) {
        total += chunk.length
        chunks.push(chunk)
      }
      return total > IMPORT_LIMITS.bytes ? Effect.fail(new InvalidRequest({ message: TOO_LARGE })) : Effect.void
    })
    const text = decode(Buffer.concat(chunks), charset.encoding)
    if (text === undefined) {
      return yield* new InvalidRequest({ message: "the CSV body is not UTF-8 text; nothing was recorded" })
    }
    return text
  })

/**
 * A CSV answer: a download, never sniffed as another type; by default never stored by a cache (a user's portfolio).
 */
export const csvAnswer = (text: string, filename: string, cacheControl = "private, no-store") =>
  HttpServerResponse.text(text, {
    contentType: "text/csv; charset=utf-8",
    headers: {
      "content-disposition": `attachment; filename="${filename}"`,
      "x-content-type-options": "nosniff",
      "cache-control": cacheControl
    }
  })
