/**
 * The plan of a CSV import: each row, in file order, decided by the ledger's
 * decider against the stream with the accepted rows before it applied (the
 * same `decide` and `evolve` as a single POST /v1/me/transactions). A row
 * whose body, with the defaults the decider would fill (fees 0, the recorded
 * payout's book closure, the portfolio's filer status), is that of a recorded
 * event not yet matched is skipped. A reversal may name an event by the id in
 * another row's `event_id` cell: the event that row recorded (or matched).
 *
 * Owns nothing stored; the caller appends the plan, or not.
 */
import { Effect } from "effect"
import type { SourceUnavailable } from "../../../domain/Errors.ts"
import {
  type Command,
  type Context as DeciderContext,
  decide,
  type Entry,
  evolve,
  needsHistory,
  type State
} from "../../../domain/ledger/Decider.ts"
import type { PortfolioEvent, StoredEvent } from "../../../domain/ledger/Events.ts"
import { filerOn, replay } from "../../../domain/ledger/Replay.ts"
import { type CellProblem, columnOf, commandOf, contentKey } from "../../../domain/ledger/csv/TransactionsCsv.ts"
import { positionsOf, toEntries } from "./Projection.ts"

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
  readonly accepted: ReadonlyArray<{ readonly line: number; readonly event: PortfolioEvent; readonly event_id: string }>
  /** The accepted events as the replay sees them (versions after the stream's head). */
  readonly drafts: ReadonlyArray<StoredEvent>
  readonly skipped: number
  readonly errors: ReadonlyArray<RowError>
}

/** The column a decider's message names ("body field `x`: …"), else a reversal's `reverses`, else `kind`. */
const columnOfMessage = (message: string, kind?: string) =>
  columnOf(/body field `([a-z_]+)/u.exec(message)?.[1] ?? "") ?? (kind === "reversal" ? "reverses" : "kind")

/** The defaults the decider fills, filled in, so a row compares with the event it would record. */
const normalised = (command: Command, facts: DeciderContext, entries: ReadonlyArray<Entry>): Command => {
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
      const status = filer ?? filerOn(entries, command.trade_date)
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
const recordedByKey = (history: ReadonlyArray<StoredEvent>) => {
  const byKey = new Map<string, Array<string>>()
  const keyOfId = new Map<string, string>()
  for (const e of history) {
    if (e.event.type === "DonationRecorded") continue
    const key = contentKey(commandOf(e.event))
    byKey.set(key, [...(byKey.get(key) ?? []), e.event_id])
    keyOfId.set(e.event_id, key)
  }
  return { byKey, keyOfId }
}

/**
 * The stream as the plan grows it. A command is decided from its symbol's entries and the tax statuses' (a symbol
 * replays apart from the others; only the filer status crosses symbols), or from every entry for a tax status or
 * its reversal: the same decision as from the whole stream, at a cost that grows with one symbol's history.
 */
const timeline = (history: ReadonlyArray<StoredEvent>, version: number) => {
  const all: Array<Entry> = [...toEntries(history)]
  const bySymbol = new Map<string, Array<Entry>>()
  const shared: Array<Entry> = []
  const byId = new Map<string, Entry>()
  let positions = new Map(positionsOf(history).map((p) => [p.symbol, p]))
  let head = { version, lastEffective: history.reduce((m, e) => (e.effective_date > m ? e.effective_date : m), "") }
  const file = (e: Entry) => {
    byId.set(e.event_id, e)
    const symbol = "symbol" in e.event ? e.event.symbol : ""
    if (symbol === "") shared.push(e)
    else {
      const list = bySymbol.get(symbol)
      if (list === undefined) bySymbol.set(symbol, [e])
      else list.push(e)
    }
  }
  all.forEach(file)
  const scopeOf = (command: Command): string | undefined => {
    if (command.kind === "tax_status") return undefined
    if (command.kind !== "reversal") return command.symbol
    const target = byId.get(command.event_id)?.event
    return target !== undefined && "symbol" in target && target.symbol !== "" ? target.symbol : undefined
  }
  const entriesOf = (scope: string | undefined) => (scope === undefined ? all : [...(bySymbol.get(scope) ?? []), ...shared])
  return {
    entries: (command: Command) => entriesOf(scopeOf(command)),
    /** The state `command` is decided from (no entries when the decider needs none). */
    stateFor: (command: Command): State => ({
      ...head,
      positions,
      entries: needsHistory(command, head) ? entriesOf(scopeOf(command)) : undefined
    }),
    add: (command: Command, entry: Entry) => {
      const fast = !needsHistory(command, head)
      const scope = scopeOf(command)
      all.push(entry)
      file(entry)
      if (fast) positions = new Map(evolve({ ...head, positions }, entry).positions)
      else {
        const r = replay(entriesOf(scope))
        if (r._tag === "Ok" && scope === undefined) positions = new Map(r.state)
        else if (r._tag === "Ok" && scope !== undefined) {
          const p = r.state.get(scope)
          positions = new Map(positions)
          if (p === undefined) positions.delete(scope)
          else positions.set(scope, p)
        }
      }
      head = { version: entry.version, lastEffective: entry.effective_date > head.lastEffective ? entry.effective_date : head.lastEffective }
    }
  }
}

/** Plans every row (see the module comment); errors for each refused row, by line and column. */
export const planRows = (history: ReadonlyArray<StoredEvent>, version: number, rows: ReadonlyArray<RowPlanInput>, deps: PlanDeps) =>
  Effect.gen(function*() {
    const { byKey, keyOfId } = recordedByKey(history)
    const stream = timeline(history, version)
    const fileIds = new Map<string, string>()
    const accepted: Array<Plan["accepted"][number]> = []
    const drafts: Array<StoredEvent> = []
    const errors: Array<RowError> = []
    let skipped = 0
    let next = version
    for (const { line, read } of rows) {
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
      const body = given["kind"] === "reversal" && typeof given["event_id"] === "string"
        ? { ...given, event_id: fileIds.get(given["event_id"]) ?? given["event_id"] }
        : given
      const problem = deps.problem(body)
      if (problem !== undefined) {
        fail(columnOfMessage(problem), problem)
        continue
      }
      const raw = body as Command
      const facts = yield* deps.facts(raw)
      const command = normalised(raw, facts, stream.entries(raw))
      const key = contentKey(command)
      if (read.eventId !== undefined && keyOfId.has(read.eventId) && keyOfId.get(read.eventId) !== key) {
        fail("event_id", `event ${read.eventId} is recorded with other content: an event is never changed (reverse it and record the correction)`)
        continue
      }
      const match = byKey.get(key)?.shift()
      if (match !== undefined) {
        skipped++
        if (read.eventId !== undefined) fileIds.set(read.eventId, match)
        continue
      }
      const decision = decide({ body: command, facts }, stream.stateFor(command))
      if (decision._tag === "Rejected") {
        fail(columnOfMessage(decision.rejection.message, command.kind), decision.rejection.message)
        continue
      }
      // stateFor gives the entries whenever the command needs them, so this is never the answer.
      if (decision._tag === "NeedsHistory") return yield* Effect.die(new Error("import: a row was decided without its history"))
      for (const event of decision.events) {
        next++
        const draft: StoredEvent = {
          position: 0,
          stream_id: "",
          version: next,
          event_id: deps.newId(),
          recorded_at: "",
          effective_date: event.trade_date,
          event,
          prev_hash: "",
          hash: ""
        }
        stream.add(command, draft)
        drafts.push(draft)
        accepted.push({ line, event, event_id: draft.event_id })
        if (read.eventId !== undefined) fileIds.set(read.eventId, draft.event_id)
      }
    }
    return { accepted, drafts, skipped, errors } satisfies Plan
  })
