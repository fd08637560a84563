/**
 * CSV in and out of a portfolio (GET /v1/me/transactions/export, POST
 * /v1/me/transactions/import). The export writes one row per event of the
 * stream, every kind, in stream order, with the figures the ledger computed
 * for dividends and bonuses. The import reads the file strictly (RFC 4180,
 * bounded) by its header's mapping, then decides every transaction row in
 * date order with the ledger's decider (ImportPlan) against the stream's
 * state, and appends what it accepted, donations among them, in one statement
 * through the LedgerWriter, or nothing when any row is refused. A row whose content is that of an event
 * already recorded (and not yet matched by an earlier row) is skipped, so the
 * same file imported twice adds nothing.
 *
 * Owns: the file's reading. Does not own: the plan's rules (ImportPlan), the
 * append (LedgerWriter, EventStore), market facts (MarketFacts).
 */
import { Clock, Context, Effect, Layer } from "effect"
import { randomUUID } from "node:crypto"
import {
  type DataNotFound,
  InvalidRequest,
  type InvalidSymbol,
  SourceUnavailable,
  WriteConflict
} from "../../../domain/Errors.ts"
import type { DateOrder } from "../../../domain/ledger/csv/Cells.ts"
import { exportFigures } from "../../../domain/ledger/csv/ExportFigures.ts"
import { type FileRead, readFile } from "../../../domain/ledger/csv/ImportFile.ts"
import type { Donation } from "../../../domain/ledger/csv/ImportRows.ts"
import { CHARGE_NAME, headerOf, type Mapping, readOverrides } from "../../../domain/ledger/csv/Mapping.ts"
import { parseCsv } from "../../../domain/ledger/csv/Rfc4180.ts"
import { HEADER_LINE, IMPORT_LIMITS, type ImportResult, rowOf } from "../../../domain/ledger/csv/TransactionsCsv.ts"
import type { Command } from "../../../domain/ledger/Decider.ts"
import type { LedgerEvent, StoredEvent } from "../../../domain/ledger/Events.ts"
import { bodyProblem } from "../../../domain/ledger/Schemas.ts"
import { karachiDate } from "../../../domain/market/calendar/Calendar.ts"
import { storeUnavailable } from "../../db/Rows.ts"
import { RateLimiter } from "../../http/RateLimiter.ts"
import { Filings } from "../../market/filings/Filings.ts"
import type { Principal } from "../accounts/Keys.ts"
import { ConcurrencyConflict, EventStore } from "../events/EventStore.ts"
import { type Listed, planRows, type RowPlanInput } from "./ImportPlan.ts"
import { MarketFacts } from "./MarketFacts.ts"
import { factsWith, streamOf } from "./Portfolio.ts"
import { toEntries } from "./Projection.ts"
import { LedgerWriter } from "./Writer.ts"

/** The most time the rows' decisions may take (the request deadline is 30 s); planning is linear, so only a stalled store meets it. */
const PLAN_BUDGET = "20 seconds"
const TOO_SLOW = "deciding this file's rows took over 20 seconds: import the file in parts; nothing was recorded"
/** Rows an import is charged one request for, beyond the request itself (a 10,000-row file costs 200 requests). */
const ROWS_PER_REQUEST = 50
const BUSY =
  "another import into this portfolio is under way: nothing was recorded; send this file again once it has answered"

/** The file read whole, or the 400 that refuses it (structure, bounds, formulas, mapping, date order). */
const readUpload = (text: string, options: ImportOptions) =>
  Effect.gen(function*() {
    const given = options.mapping === undefined ? { overrides: new Map() } : readOverrides(options.mapping)
    if ("problem" in given) {
      return yield* new InvalidRequest({
        message: `query parameter \`mapping\`: ${given.problem}; nothing was recorded`
      })
    }
    const parsed = parseCsv(text, { maxRows: IMPORT_LIMITS.rows, maxColumns: 40, maxCellLength: IMPORT_LIMITS.cell })
    if (parsed._tag === "Problem") {
      return yield* new InvalidRequest({
        message: `CSV line ${parsed.line}: ${parsed.message}; nothing was recorded`
      })
    }
    const file = readFile(parsed.header, parsed.rows, options.dateOrder, given.overrides)
    if ("problem" in file) {
      const where = file.column !== undefined ? `, column ${file.column}` : ""
      return yield* new InvalidRequest({
        message: `CSV line ${file.line}${where}: ${file.problem}; nothing was recorded`
      })
    }
    return file
  })

/** The body with its symbol as listed, or the row's problem. */
const listedBody = (
  filings: typeof Filings.Service,
  body: Record<string, unknown>
): Effect.Effect<Listed, SourceUnavailable> =>
  typeof body["symbol"] !== "string"
    ? Effect.succeed({ body })
    : filings.requireListed(body["symbol"].trim()).pipe(
      Effect.map((symbol): Listed => ({ body: { ...body, symbol } })),
      Effect.catchIf(
        (e): e is InvalidSymbol | DataNotFound => !(e instanceof SourceUnavailable),
        (e) => Effect.succeed<Listed>({ column: "symbol", message: e.message })
      )
    )

const donationKey = (date: string, amount: number, note: string | undefined) =>
  JSON.stringify([date, amount, note ?? ""])

/** The file's donations not yet recorded (a recorded one with the same date, amount and note is matched once), as events. */
const donationsToRecord = (
  history: ReadonlyArray<StoredEvent>,
  donations: ReadonlyArray<{ line: number; donation: Donation }>
) => {
  const recorded = new Map<string, number>()
  for (const e of history) {
    if (e.event.type !== "DonationRecorded") continue
    const key = donationKey(e.effective_date, e.event.amount, e.event.note)
    recorded.set(key, (recorded.get(key) ?? 0) + 1)
  }
  const accepted: Array<{ line: number; event: LedgerEvent; event_id: string }> = []
  let skipped = 0
  for (const { line, donation } of donations) {
    // As POST /v1/me/donations stores it: the note trimmed, an empty one left out.
    const note = donation.note?.trim() || undefined
    const key = donationKey(donation.trade_date, donation.amount, note)
    const left = recorded.get(key) ?? 0
    if (left > 0) {
      recorded.set(key, left - 1)
      skipped++
      continue
    }
    accepted.push({
      line,
      event_id: randomUUID(),
      event: {
        type: "DonationRecorded",
        donation_id: randomUUID(),
        amount: donation.amount,
        currency: "PKR",
        ...(note ? { note } : {}),
        status: "pending",
        date: donation.trade_date
      }
    })
  }
  return { accepted, skipped }
}

/** The mapping as the answer shows it. */
const mappingAnswer = (file: FileRead): typeof ImportResult.Type["mapping"] => ({
  format: file.mapping.format,
  columns: file.mapping.fields.map((f) => ({
    header: f.header,
    reads_as: f.field === "charge" ? CHARGE_NAME : f.field
  })),
  ignored: file.mapping.ignored,
  ...(file.dateOrder !== undefined ? { date_order: file.dateOrder } : {})
})

const named = (mapping: Mapping) => <A extends { readonly column: string }>(e: A): A => ({
  ...e,
  column: headerOf(mapping, e.column)
})

export interface ImportOptions {
  readonly dryRun: boolean
  readonly dateOrder?: DateOrder | undefined
  /** The `mapping` query parameter: a JSON object of header → column. */
  readonly mapping?: string | undefined
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
        const figures = exportFigures(toEntries(events))
        const lines = events.map((e) => rowOf(e.event, e.event_id, e.effective_date, figures.get(e.event_id)))
        return [HEADER_LINE, ...lines].map((l) => `${l}\r\n`).join("")
      })

      /** One attempt: read the stream, plan every row, append the plan (unless a dry run or a row is refused). */
      const attempt = (principal: Principal, file: FileRead, options: ImportOptions) =>
        Effect.gen(function*() {
          const streamId = streamOf(principal.userId)
          const from = yield* writer.snapshot(streamId)
          const today = karachiDate(yield* Clock.currentTimeMillis)
          const transactions: Array<RowPlanInput> = []
          const donationRows: Array<{ line: number; donation: Donation }> = []
          for (const { line, read } of file.rows) {
            if ("donation" in read) donationRows.push({ line, donation: read.donation })
            else transactions.push({ line, read })
          }
          const plan = yield* planRows(from, transactions, {
            listed: (body) => listedBody(filings, body),
            facts: (command: Command) => factsFor(command, today),
            problem: bodyProblem,
            newId: randomUUID
          }).pipe(
            // Planning comes before the append, so stopping it records nothing and the answer beats the request deadline.
            Effect.timeoutOrElse({
              duration: PLAN_BUDGET,
              orElse: () => Effect.fail(new InvalidRequest({ message: TOO_SLOW }))
            })
          )
          // Donations move no position; the stream is read for them only when the file has some.
          const history = donationRows.length > 0 ? yield* store.readStream(streamId) : []
          const donations = donationsToRecord(history, donationRows)
          // Transactions in the date order they were decided in, donations after them.
          const accepted = [...plan.accepted, ...donations.accepted]
          const errors = plan.errors.map(named(file.mapping))
          const answer = {
            dry_run: options.dryRun,
            rows: file.rows.length,
            skipped: plan.skipped + donations.skipped,
            mapping: mappingAnswer(file),
            notes: file.notes.map(named(file.mapping)),
            errors
          }
          if (errors.length > 0 && !options.dryRun) {
            const shown = errors.slice(0, 5).map((e) => `line ${e.line}, column ${e.column}: ${e.message}`).join("; ")
            return yield* new InvalidRequest({
              message: `${errors.length} row(s) refused, nothing was recorded (dry_run=true lists them all): ${shown}`
            })
          }
          if (options.dryRun || accepted.length === 0) {
            const planned = accepted.map(({ line, event }) => ({ line, type: event.type, payload: event }))
            return { ...answer, recorded: 0, events: planned.sort((a, b) => a.line - b.line) }
          }
          const appended: ReadonlyArray<StoredEvent> = yield* writer.writeDecided(
            streamId,
            from,
            accepted,
            plan.after,
            {
              actor_key_id: principal.keyId,
              request_id: options.requestId,
              client_request_id: options.clientRequestId
            }
          )
          return {
            ...answer,
            recorded: appended.length,
            // In file order (they were decided, and are stored, in date order).
            events: appended.map((e, i) => ({
              line: accepted[i]!.line,
              event_id: e.event_id,
              type: e.event.type,
              payload: e.event
            }))
              .sort((a, b) => a.line - b.line)
          }
        })

      const importCsv = Effect.fn("TransactionsCsv.import")(function*(
        principal: Principal,
        text: string,
        options: ImportOptions
      ) {
        const file = yield* readUpload(text, options)
        const userId = principal.userId
        const now = yield* Clock.currentTimeMillis
        if (importing.has(userId)) return yield* new WriteConflict({ message: BUSY })
        if (limiter._tag === "Some") {
          limiter.value.chargeWork(userId, Math.floor(file.rows.length / ROWS_PER_REQUEST), now)
        }
        importing.add(userId)
        return yield* attempt(principal, file, options).pipe(
          // Another writer appended meanwhile: plan again from the new state.
          Effect.retry({ while: (e) => e instanceof ConcurrencyConflict, times: 5 }),
          Effect.catchTag(
            "ConcurrencyConflict",
            () =>
              Effect.fail(
                new SourceUnavailable({
                  message: "the portfolio was too busy to import into; nothing was recorded, try again"
                })
              )
          ),
          Effect.catchTag("SqlError", (e) => storeUnavailable(Effect.fail(e))),
          Effect.ensuring(Effect.sync(() => importing.delete(userId)))
        )
      })

      return { exportCsv, importCsv }
    })
  )
}
