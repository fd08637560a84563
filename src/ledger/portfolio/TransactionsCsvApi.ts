/** The transactions CSV endpoints: export and import in the portfolio group, the public template (src/ledger/LedgerApi.ts). */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiSchema, OpenApi } from "effect/http-api"
import { Forbidden, SourceUnavailable, Unauthorized, WriteConflict } from "../../../domain/Errors.ts"
import { KNOWN_NAMES } from "../../../domain/ledger/csv/Mapping.ts"
import { COLUMNS, IMPORT_LIMITS, ImportResult } from "../../../domain/ledger/csv/TransactionsCsv.ts"
import { BoolParam } from "../../../domain/Params.ts"
import { RequiredGrant } from "../accounts/BearerAuth.ts"

const describe = (summary: string, description: string) => OpenApi.annotations({ summary, description })
const auth = [Unauthorized, Forbidden] as const

/** The template's columns: every column, or a trade's only. */
export const TEMPLATE_COLUMNS = {
  all: COLUMNS,
  trades: ["trade_date", "kind", "symbol", "quantity", "price", "fees"]
} as const

const CSV_COLUMNS = `Columns, in this order: ${COLUMNS.join(", ")}.`
const FORMULAS =
  "Formula injection (OWASP's advice): every text cell is quoted, and a text cell that would start with =, " +
  "+, -, @, a tab or a carriage return — after any apostrophes — gets one more leading apostrophe, so no cell starts a " +
  "formula whichever separator (, or ;) a spreadsheet splits on. The import drops exactly that apostrophe again, so a " +
  "reason written `'=1` exports as `''=1` and imports as `'=1`: export then import gives the same text. Numbers are " +
  "bare plain decimals (a dot, no grouping); a negative number is a number, not a formula."

const CSV_EXPORT =
  "Grant portfolio:read. The portfolio as text/csv (RFC 4180: UTF-8 without a byte-order mark, CRLF line " +
  "ends, a header line), a download (Content-Disposition: attachment) never stored by a cache (Cache-Control: private, " +
  "no-store; X-Content-Type-Options: nosniff). One row per event of every kind, in the order recorded: buy, sell, " +
  "dividend, bonus, split, tax_status, reversal (as in POST /v1/me/transactions) and donation (POST /v1/me/donations: " +
  "trade_date is the date it was recorded, with amount and note). " + CSV_COLUMNS + " A cell is empty where the kind " +
  "has no such field. A dividend row carries the per-share amount or the warrant's gross and tax, the book closure and " +
  "filer status its event holds, and the figures the ledger computed: shares (entitled), dividend_gross, dividend_tax " +
  "and dividend_net in rupees; a bonus row the whole shares credited (shares). These computed columns are empty for a " +
  "reversed event, and never read by the import. A reversal row carries the reversed event's id (`reverses`), trade " +
  "date and symbol.\n\n" + FORMULAS

const mappedNames = Object.entries(
  Object.groupBy(Object.entries(KNOWN_NAMES), ([, field]) => (field === "charge" ? "fees (added up)" : field))
).map(([field, names]) => `${field} ← ${(names ?? []).map(([n]) => n).join(", ")}`).join("; ")

const CSV_IMPORT = "Grant portfolio:write. Body text/csv, at most " +
  `${IMPORT_LIMITS.rows.toLocaleString("en")} rows, ${IMPORT_LIMITS.bytes.toLocaleString("en")} bytes and ` +
  `${IMPORT_LIMITS.cell.toLocaleString("en")} characters a cell. Charset: UTF-8 when the Content-Type names none; ` +
  "`charset=latin1` (ISO-8859-1, windows-1252: a spreadsheet's CSV on Windows) is converted; any other charset is 400.\n\n" +
  "Two formats. The ledger's own (a header with a `kind` column): the export's columns in any order (a missing column " +
  "is an empty one; any other column refuses the file). " + CSV_COLUMNS + " Each row is the body of POST " +
  "/v1/me/transactions spelt as cells (a donation row: trade_date, amount, note); shares and the dividend_ columns " +
  "are not read. A broker's statement (any other header, e.g. Date,Type,Symbol,Qty,Rate,Commission): each header is " +
  "matched ignoring case, spaces and punctuation — " + mappedNames + ". A header matching none (Amount, Net Amount, " +
  "Remarks…) is ignored and listed, its cells not read; a lone dash is an empty cell; " +
  "two headers for one column refuse the file. The answer's `mapping` says how each header was read (show it before " +
  "importing, and keep it); the `mapping` parameter reads a header the import does not know, or holds a kept reading " +
  "to the next statement.\n\n" +
  "Cells, in both formats: buy and sell in any case (also B, S, Bought, Sold, Purchase, Sale); numbers with thousands " +
  "or lakh separators (\"1,000\", \"1,00,000\"), a sale's quantity may be negative; dates as YYYY-MM-DD, " +
  "DD/MM/YYYY or MM/DD/YYYY (/, - or .), 20-May-2026 or May 20, 2026, a time after the date ignored, two-digit years " +
  "refused. Date order: the file's dates decide it (20/05/2026 is day first, 3/20/2023 month first); a file whose " +
  "every such date could be either (03/04/2026) is 400 unless `date_order` says (dmy or mdy; ymd: every date is " +
  "year-first); a file mixing both is 400. Commission, CDC and other charge columns are added to the fees. A rate " +
  "with more than two decimals (215.425) is recorded as the price to the paisa, down for a buy and up for a sale, and " +
  "the difference times the quantity is added to the fees, so price × quantity ± fees is the broker's amount; fees " +
  "are rounded to the paisa once. Each such change is listed in `notes`.\n\n" +
  "Each row is decided by the rules of POST /v1/me/transactions in date order (trade_date, then file order), with " +
  "the rows before it in that order applied, so a file may list its rows in any order; a reversal of a recorded " +
  "event is decided first, a reversal of another row right after the rows of that row's date. All rows or none are " +
  "recorded, in one append, stored in that date order; the answer lists them by line. A reversal naming an event_id " +
  "that two rows of the file carry is refused as ambiguous. A dividend or bonus row for a payout already recorded " +
  "(same symbol, kind and book closure) is refused naming the event that holds it.\n\n" +
  "One import per portfolio runs at a time: a second one sent while the first is under way is 409 INVALID_REQUEST " +
  "with nothing recorded (send it again once the first has answered). An import is charged to the user's rate limit " +
  "by its rows: one request for every 50 rows beyond the request itself (a 10,000-row file costs 200), so the " +
  "requests that follow it may wait (429 with Retry-After). A row whose content (with the defaults the ledger fills: fees 0, the recorded " +
  "payout's book closure, the portfolio's filer status) is that of an event already recorded is skipped (a donation: " +
  "same date, amount and note), so importing the same file twice adds nothing; a row whose event_id names a recorded " +
  "event of other content is refused. A reversal row's `reverses` may name another row's event_id: the event that row " +
  "records. A reversal's trade_date and symbol cells are shown only. Importing a portfolio's export into a new one " +
  "records the same events in the same order (with new ids).\n\n" +
  "`dry_run=true` records nothing and answers the mapping, the events the file would record and every refused row by " +
  "line (the header is line 1) and column (as the file names it). Without it, any refused row makes the answer 400 " +
  "INVALID_REQUEST naming the first rows by line and column, and nothing is recorded.\n\n" +
  "The file itself is refused whole (400 INVALID_REQUEST, nothing recorded, dry run or not) when it is larger than the " +
  "bound, not in its charset, has no column saying buy or sell, an unknown or repeated column (ledger format), a row " +
  "with another number of cells than the header, a quote outside RFC 4180's rules, a line break inside a quoted cell, " +
  "a bare CR, a byte-order mark anywhere but the start, ambiguous or mixed date orders, or a read cell that would run " +
  "as a spreadsheet formula (starting with =, +, -, @, a tab or a CR, and not a number or a lone dash; to mean the text, start the cell " +
  "with an apostrophe, which the import drops, as the export writes it). A leading byte-order mark, CRLF or LF line " +
  "ends, quoted cells holding commas or doubled quotes, and blank rows are read as RFC 4180 and spreadsheets write them."

const TEMPLATE = "Public. A CSV file to fill in and import (POST /v1/me/transactions/import): the header line of the " +
  "ledger's format and no rows. `columns=trades` gives a trade's columns only (trade_date, kind, symbol, quantity, " +
  "price, fees: kind is buy or sell); `columns=all` (the default) every column the export writes. A broker's statement " +
  "needs no template: the import maps its headers."

export const csvEndpoints = [
  HttpApiEndpoint.get("exportTransactions", "/v1/me/transactions/export", {
    success: Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/csv" })),
    error: [...auth, SourceUnavailable]
  }).annotate(RequiredGrant, "portfolio:read").annotateMerge(describe("Export the transactions as CSV", CSV_EXPORT)),
  HttpApiEndpoint.post("importTransactions", "/v1/me/transactions/import", {
    query: {
      dry_run: Schema.optional(
        BoolParam.annotate({ description: "true: record nothing; answer the plan and every row's errors" })
      ),
      date_order: Schema.optional(
        Schema.Literals(["dmy", "mdy", "ymd"]).annotate({
          description:
            "How to read dates like 03/04/2026: dmy (day first), mdy (month first), ymd (every date year-first). " +
            "Needed only when the file's own dates do not show it"
        })
      ),
      mapping: Schema.optional(
        Schema.String.check(Schema.isMaxLength(4000)).annotate({
          description:
            "Your own reading of headers, as a JSON object of header → column (a column name, \"fees (added)\" or " +
            "\"ignore\"), e.g. {\"Instrument\":\"symbol\",\"Net Qty\":\"quantity\"}: it decides over the names the " +
            "import knows, and makes the file a broker's statement. Every header it names must be in the file, so a remembered " +
            "mapping refuses a statement whose columns changed (400) rather than misreading it"
        })
      )
    },
    payload: HttpApiSchema.StreamUint8Array({ contentType: "text/csv" }),
    success: ImportResult,
    error: [...auth, WriteConflict, SourceUnavailable]
  }).annotate(RequiredGrant, "portfolio:write").annotateMerge(describe("Import transactions from CSV", CSV_IMPORT))
] as const

export const csvTemplateEndpoint = HttpApiEndpoint.get("importTemplate", "/v1/me/transactions/import/template", {
  query: {
    columns: Schema.optional(
      Schema.Literals(["all", "trades"]).annotate({ description: "all (the default) or trades" })
    )
  },
  success: Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/csv" }))
}).annotateMerge(describe("Download the import template", TEMPLATE))
