/**
 * The plan of a CSV import: every row decided by the ledger's decider (the
 * same `decide` and `evolve` as a single POST /v1/me/transactions), in one
 * pass in date order, each against the stream with the rows before it in
 * that order applied. A reversal of a recorded event goes first; a reversal
 * of a row of the file goes right after that row. Deciding in date order
 * makes each row one step of its symbol's replay (History.ts), whatever the
 * file's order: the plan is linear in the rows. It yields to the event loop
 * every 20 rows.
 *
 * A row whose body, with the defaults the decider would fill (fees 0, the
 * recorded payout's book closure, the portfolio's filer status), is that of
 * a recorded event not yet matched is skipped. A reversal may name an event
 * by the id in another row's `event_id` cell: the event that row recorded
 * (or matched); an id that two rows carry is refused as ambiguous.
 *
 * Owns nothing stored; the caller appends the plan, or not.
 */
import { Effect } from "effect"
import type { SourceUnavailable } from "../../../domain/Errors.ts"
import { type CellProblem, columnOf, commandOf, contentKey } from "../../../domain/ledger/csv/TransactionsCsv.ts"
import {
  type Command,
  type Context as DeciderContext,
  decide,
  draftEntry,
  type Entry,
  evolve,
  type State
} from "../../../domain/ledger/Decider.ts"
import type { PortfolioEvent } from "../../../domain/ledger/Events.ts"
import type { History } from "../../../domain/ledger/History.ts"
import type { Snapshot } from "./Writer.ts"

/** A row as read: its line, and its body (with the file's event id) or its problem. */
export interface RowPlanInput {
  readonly line: number
  readonly read: { readonly body: Record<string, unknown>; readonly eventId?: string } | CellProblem
}

export interface RowError {
  readonly line: number
  readonly column: string
  readonly message: string
}

/** A body with its symbol as listed, or the symbol's problem. */
export type Listed = { readonly body: Record<string, unknown> } | CellProblem

export interface PlanDeps {
  /** The body with its symbol as the exchange lists it, or the symbol's problem. */
  readonly listed: (body: Record<string, unknown>) => Effect.Effect<Listed, SourceUnavailable>
  readonly facts: (command: Command) => Effect.Effect<DeciderContext, SourceUnavailable>
  /** Why a body is not a transaction ("body field `x`: …"), or undefined. */
  readonly problem: (body: unknown) => string | undefined
  readonly newId: () => string
}

export interface Plan {
  /** The accepted events in the order they are appended (date order). */
  readonly accepted: ReadonlyArray<{ readonly line: number; readonly event: PortfolioEvent; readonly event_id: string }>
  /** The stream's state after them. */
  readonly after: State
  readonly skipped: number
  /** Refused rows, by line. */
  readonly errors: ReadonlyArray<RowError>
}

/** Rows decided between two yields to the event loop. */
const ROWS_PER_SLICE = 20

/** The column a decider's message names ("body field `x`: …"), else a reversal's `reverses`, else `kind`. */
const columnOfMessage = (message: string, kind?: string) =>
  columnOf(/body field `([a-z_]+)/u.exec(message)?.[1] ?? "") ?? (kind === "reversal" ? "reverses" : "kind")

/** The defaults the decider fills, filled in, so a row compares with the event it would record. */
const normalised = (command: Command, facts: DeciderContext, history: History): Command => {
  switch (command.kind) {
    case "buy":
    case "sell":
      return { ...command, fees: command.fees ?? 0 }
    case "bonus":
      return { ...command, ...bookClosure(command.book_closure_from ?? facts.bookClosure) }
    case "dividend": {
      const { filer, ...rest } = command
      const withClosure = { ...rest, ...bookClosure(command.book_closure_from ?? facts.bookClosure) }
      if (command.tax_withheld !== undefined) return withClosure
      const status = filer ?? history.filerOn(command.trade_date)
      return status === undefined ? withClosure : { ...withClosure, filer: status }
    }
    case "reversal":
      return { ...command, reason: command.reason.trim() }
    default:
      return command
  }
}
const bookClosure = (date: string | undefined) => (date === undefined ? {} : { book_closure_from: date })

/** Recorded events by their body's key, each key's ids in stream order (a multiset: two equal buys are two). */
const recordedByKey = (history: ReadonlyArray<Entry>) => {
  const byKey = new Map<string, Array<string>>()
  const keyOfId = new Map<string, string>()
  for (const e of history) {
    if (e.event.type === "DonationRecorded") continue
    const key = contentKey(commandOf(e.event))
    const ids = byKey.get(key)
    if (ids === undefined) byKey.set(key, [e.event_id])
    else ids.push(e.event_id)
    keyOfId.set(e.event_id, key)
  }
  return { byKey, keyOfId }
}

/** The `event_id` cells of the file: each id and the lines that carry it. */
const fileIdLines = (rows: ReadonlyArray<RowPlanInput>) => {
  const lines = new Map<string, Array<number>>()
  for (const { line, read } of rows) {
    if ("column" in read || read.eventId === undefined) continue
    const list = lines.get(read.eventId)
    if (list === undefined) lines.set(read.eventId, [line])
    else list.push(line)
  }
  return lines
}

/**
 * The order rows are decided in: by date, then file order. A reversal of a recorded event (or of nothing known)
 * goes first; a reversal of a row of the file goes right after the rows of that row's date.
 */
const decisionOrder = (rows: ReadonlyArray<RowPlanInput>, idLines: ReadonlyMap<string, ReadonlyArray<number>>) => {
  const dateOfLine = new Map<number, string>()
  for (const { line, read } of rows) {
    if (!("column" in read) && typeof read.body["trade_date"] === "string") {
      dateOfLine.set(line, read.body["trade_date"])
    }
  }
  const keyOf = ({ line, read }: RowPlanInput): readonly [string, number, number] => {
    if ("column" in read) return ["", 0, line]
    if (read.body["kind"] !== "reversal") return [dateOfLine.get(line) ?? "", 1, line]
    const target = typeof read.body["event_id"] === "string" ? idLines.get(read.body["event_id"]) : undefined
    const targetDate = target?.length === 1 ? dateOfLine.get(target[0]!) : undefined
    return targetDate === undefined ? ["", 0, line] : [targetDate, 2, line]
  }
  const keyed = rows.map((row) => ({ row, key: keyOf(row) }))
  keyed.sort((a, b) => a.key[0] < b.key[0] ? -1 : a.key[0] > b.key[0] ? 1 : a.key[1] - b.key[1] || a.key[2] - b.key[2])
  return keyed.map((k) => k.row)
}

/** Plans every row (see the module comment); errors for each refused row, by line and column. */
export const planRows = (from: Snapshot, rows: ReadonlyArray<RowPlanInput>, deps: PlanDeps) =>
  Effect.gen(function*() {
    const { byKey, keyOfId } = recordedByKey(from.state.history.entries())
    const idLines = fileIdLines(rows)
    const fileIds = new Map<string, string>()
    const accepted: Array<Plan["accepted"][number]> = []
    const errors: Array<RowError> = []
    let state = from.state
    let skipped = 0
    let decided = 0
    for (const { line, read } of decisionOrder(rows, idLines)) {
      if (++decided % ROWS_PER_SLICE === 0) yield* Effect.yieldNow
      const fail = (column: string, message: string) => errors.push({ line, column, message })
      if ("column" in read) {
        fail(read.column, read.message)
        continue
      }
      const listed = yield* deps.listed(read.body)
      if ("column" in listed) {
        fail(listed.column, listed.message)
        continue
      }
      const given = listed.body
      const named = given["kind"] === "reversal" && typeof given["event_id"] === "string"
        ? given["event_id"]
        : undefined
      const sharing = named === undefined ? undefined : idLines.get(named)
      if (named !== undefined && sharing !== undefined && sharing.length > 1) {
        fail(
          "reverses",
          `event id ${named} is the event_id of ${sharing.length} rows (lines ${sharing.join(", ")}): ` +
            "a reversal cannot tell which one it means; give each row its own event_id"
        )
        continue
      }
      const body = named !== undefined ? { ...given, event_id: fileIds.get(named) ?? named } : given
      const problem = deps.problem(body)
      if (problem !== undefined) {
        fail(columnOfMessage(problem), problem)
        continue
      }
      const raw = body as Command
      const facts = yield* deps.facts(raw)
      const command = normalised(raw, facts, state.history)
      const key = contentKey(command)
      if (read.eventId !== undefined && keyOfId.has(read.eventId) && keyOfId.get(read.eventId) !== key) {
        fail(
          "event_id",
          `event ${read.eventId} is recorded with other content: an event is never changed (reverse it and record the correction)`
        )
        continue
      }
      const match = byKey.get(key)?.shift()
      if (match !== undefined) {
        skipped++
        if (read.eventId !== undefined) fileIds.set(read.eventId, match)
        continue
      }
      const decision = decide({ body: command, facts }, state)
      if (decision._tag === "Rejected") {
        fail(columnOfMessage(decision.rejection.message, command.kind), decision.rejection.message)
        continue
      }
      for (const event of decision.events) {
        const entry = draftEntry(event, state.version + 1, deps.newId())
        state = evolve(state, entry)
        accepted.push({ line, event, event_id: entry.event_id })
        if (read.eventId !== undefined) fileIds.set(read.eventId, entry.event_id)
      }
    }
    errors.sort((a, b) => a.line - b.line)
    return { accepted, after: state, skipped, errors } satisfies Plan
  })
