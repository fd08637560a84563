/**
 * CSV in and out of a portfolio (GET /v1/me/transactions/export, POST
 * /v1/me/transactions/import). The export writes one row per event of the
 * stream, in stream order. The import reads the file strictly (RFC 4180,
 * bounded), then decides every row with the ledger's decider and the market
 * facts POST /v1/me/transactions uses, in date order (ImportPlan.ts), against
 * the stream's state with the rows before it applied; it appends what it accepted in one statement
 * through the LedgerWriter (expected version, every position rewritten), or
 * nothing when any row is refused. A row whose body is that of an event
 * already recorded (and not yet matched by an earlier row) is skipped, so the
 * same file imported twice adds nothing.
 *
 * Owns: the file's reading and the row-by-row plan. Does not own: the decider's
 * rules, the append (LedgerWriter, EventStore), market facts (MarketFacts).
 */
import { Clock, Context, Effect, Layer, Stream } from "effect"
import { randomUUID } from "node:crypto"
import { type DataNotFound, InvalidRequest, type InvalidSymbol, SourceUnavailable, WriteConflict } from "../../../domain/Errors.ts"
import { karachiDate } from "../../../domain/market/calendar/Calendar.ts"
import type { Command } from "../../../domain/ledger/Decider.ts"
import type { StoredEvent } from "../../../domain/ledger/Events.ts"
import { bodyProblem } from "../../../domain/ledger/Schemas.ts"
import { parseCsv } from "../../../domain/ledger/csv/Rfc4180.ts"
import {
  bodyOfRow,
  type CellProblem,
  formulaCell,
  HEADER_LINE,
  IMPORT_LIMITS,
  type ImportResult,
  readHeader,
  rowOf
} from "../../../domain/ledger/csv/TransactionsCsv.ts"
import { RateLimiter } from "../../http/RateLimiter.ts"
import { Filings } from "../../market/filings/Filings.ts"
import { storeUnavailable } from "../../db/Rows.ts"
import type { Principal } from "../accounts/Keys.ts"
import { ConcurrencyConflict, EventStore } from "../events/EventStore.ts"
import { type Listed, planRows, type RowPlanInput } from "./ImportPlan.ts"
import { MarketFacts } from "./MarketFacts.ts"
import { factsWith, streamOf } from "./Portfolio.ts"
import { LedgerWriter } from "./Writer.ts"

/** The most time the rows' decisions may take (the request deadline is 30 s); planning is linear, so only a stalled store meets it. */
const PLAN_BUDGET = "20 seconds"
const TOO_SLOW = "deciding this file's rows took over 20 seconds: import the file in parts; nothing was recorded"
/** Rows an import is charged one request for, beyond the request itself (a 10,000-row file costs 200 requests). */
const ROWS_PER_REQUEST = 50
const BUSY = "another import into this portfolio is under way: nothing was recorded; send this file again once it has answered"

const TOO_LARGE = `the CSV body is over ${IMPORT_LIMITS.bytes.toLocaleString("en")} bytes; nothing was recorded`

/**
 * The request body as text: refused (400) past the byte bound, by its declared length before a byte is read and
 * while it streams, or when it is not UTF-8.
 */
export const readCsvBody = (body: Stream.Stream<Uint8Array, unknown>, declaredLength: string | undefined): Effect.Effect<string, InvalidRequest> =>
  Effect.gen(function*() {
    if (declaredLength !== undefined && Number(declaredLength) > IMPORT_LIMITS.bytes) return yield* new InvalidRequest({ message: TOO_LARGE })
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
    try {
      return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks))
    } catch {
      return yield* new InvalidRequest({ message: "the CSV body is not UTF-8 text; nothing was recorded" })
    }
  })

/** The file's rows as bodies, or the 400 that refuses the whole file (structure, bounds, formulas). */
const readFile = (text: string) =>
  Effect.gen(function*() {
    const parsed = parseCsv(text, { maxRows: IMPORT_LIMITS.rows, maxColumns: 40, maxCellLength: IMPORT_LIMITS.cell })
    if (parsed._tag === "Problem") return yield* new InvalidRequest({ message: `CSV line ${parsed.line}: ${parsed.message}; nothing was recorded` })
    const header = readHeader(parsed.header)
    if ("problem" in header) return yield* new InvalidRequest({ message: `CSV line 1: ${header.problem}; nothing was recorded` })
    const width = parsed.header.length
    const rows: Array<RowPlanInput> = []
    for (const row of parsed.rows) {
      if (row.cells.length !== width) {
        return yield* new InvalidRequest({
          message: `CSV line ${row.line} has ${row.cells.length} cells, the header ${width} (ragged rows are refused); nothing was recorded`
        })
      }
      const formula = formulaCell(row.cells, header.index)
      if (formula !== undefined) {
        return yield* new InvalidRequest({
          message: `CSV line ${row.line}, column ${formula}: a cell starting with =, +, -, @, a tab or a carriage return is a ` +
            "spreadsheet formula and is refused (to mean the text, start the cell with an apostrophe); nothing was recorded"
        })
      }
      rows.push({ line: row.line, read: bodyOfRow(row.cells, header.index) })
    }
    return rows
  })

/** The body with its symbol as listed, or the row's problem. */
const listedBody = (filings: typeof Filings.Service, body: Record<string, unknown>): Effect.Effect<Listed, SourceUnavailable> =>
  typeof body["symbol"] !== "string"
    ? Effect.succeed({ body })
    : filings.requireListed(body["symbol"]).pipe(
      Effect.map((symbol): Listed => ({ body: { ...body, symbol } })),
      Effect.catchIf(
        (e): e is InvalidSymbol | DataNotFound => !(e instanceof SourceUnavailable),
        (e) => Effect.succeed<Listed>({ column: "symbol", message: e.message })
      )
    )

export interface ImportOptions {
  readonly dryRun: boolean
  readonly requestId?: string | undefined
  readonly clientRequestId?: string | undefined
}

export class TransactionsCsv extends Context.Service<TransactionsCsv, {
  /** The portfolio as CSV text: the header, then one CRLF-ended row per event. */
  readonly exportCsv: (principal: Principal) => Effect.Effect<string, SourceUnavailable>
  /** Imports (or, with `dryRun`, plans) a CSV file's rows: all or none. */
  readonly importCsv: (
    principal: Principal,
    text: string,
    options: ImportOptions
  ) => Effect.Effect<typeof ImportResult.Type, InvalidRequest | WriteConflict | SourceUnavailable>
}>()("psx/ledger/TransactionsCsv") {
  static readonly layer = Layer.effect(
    TransactionsCsv,
    Effect.gen(function*() {
      const store = yield* EventStore
      const writer = yield* LedgerWriter
      const filings = yield* Filings
      const factsFor = factsWith(yield* MarketFacts)
      const limiter = yield* Effect.serviceOption(RateLimiter)
      /** The users with an import under way in this process: one at a time each. */
      const importing = new Set<string>()

      const exportCsv = Effect.fn("TransactionsCsv.export")(function*(principal: Principal) {
        const events = yield* store.readStream(streamOf(principal.userId)).pipe(storeUnavailable)
        const lines = events.flatMap((e) => (e.event.type === "DonationRecorded" ? [] : [rowOf(e.event, e.event_id)]))
        return [HEADER_LINE, ...lines].map((l) => `${l}\r\n`).join("")
      })

      /** One attempt: read the stream, plan every row, append the plan (unless a dry run or a row is refused). */
      const attempt = (principal: Principal, rows: ReadonlyArray<RowPlanInput>, options: ImportOptions) =>
        Effect.gen(function*() {
          const streamId = streamOf(principal.userId)
          const from = yield* writer.snapshot(streamId)
          const today = karachiDate(yield* Clock.currentTimeMillis)
          const plan = yield* planRows(from, rows, {
            listed: (body) => listedBody(filings, body),
            facts: (command: Command) => factsFor(command, today),
            problem: bodyProblem,
            newId: randomUUID
          }).pipe(
            // Planning comes before the append, so stopping it records nothing and the answer beats the request deadline.
            Effect.timeoutOrElse({ duration: PLAN_BUDGET, orElse: () => Effect.fail(new InvalidRequest({ message: TOO_SLOW })) })
          )
          const answer = { dry_run: options.dryRun, rows: rows.length, skipped: plan.skipped, errors: plan.errors }
          if (plan.errors.length > 0 && !options.dryRun) {
            const shown = plan.errors.slice(0, 5).map((e) => `line ${e.line}, column ${e.column}: ${e.message}`).join("; ")
            return yield* new InvalidRequest({
              message: `${plan.errors.length} row(s) refused, nothing was recorded (dry_run=true lists them all): ${shown}`
            })
          }
          if (options.dryRun || plan.accepted.length === 0) {
            const planned = plan.accepted.map(({ line, event }) => ({ line, type: event.type, payload: event }))
            return { ...answer, recorded: 0, events: planned.sort((a, b) => a.line - b.line) }
          }
          const appended: ReadonlyArray<StoredEvent> = yield* writer.writeDecided(streamId, from, plan.accepted, plan.after, {
            actor_key_id: principal.keyId,
            request_id: options.requestId,
            client_request_id: options.clientRequestId
          })
          return {
            ...answer,
            recorded: appended.length,
            // In file order (they were decided, and are stored, in date order).
            events: appended.map((e, i) => ({ line: plan.accepted[i]!.line, event_id: e.event_id, type: e.event.type, payload: e.event }))
              .sort((a, b) => a.line - b.line)
          }
        })

      const importCsv = Effect.fn("TransactionsCsv.import")(function*(
        principal: Principal,
        text: string,
        options: ImportOptions
      ) {
        const rows = yield* readFile(text)
        const userId = principal.userId
        const now = yield* Clock.currentTimeMillis
        if (importing.has(userId)) return yield* new WriteConflict({ message: BUSY })
        if (limiter._tag === "Some") limiter.value.charge(userId, Math.floor(rows.length / ROWS_PER_REQUEST), now)
        importing.add(userId)
        return yield* attempt(principal, rows, options).pipe(
          // Another writer appended meanwhile: plan again from the new state.
          Effect.retry({ while: (e) => e instanceof ConcurrencyConflict, times: 5 }),
          Effect.catchTag("ConcurrencyConflict", () =>
            Effect.fail(new SourceUnavailable({ message: "the portfolio was too busy to import into; nothing was recorded, try again" }))),
          Effect.catchTag("SqlError", (e) => storeUnavailable(Effect.fail(e))),
          Effect.ensuring(Effect.sync(() => importing.delete(userId)))
        )
      })

      return { exportCsv, importCsv }
    })
  )
}
