/**
 * The portfolio tools: served only to a caller with a
 * bearer credential, each one a portfolio route of the HTTP API called in
 * process (RouteTools.ts), so it has exactly that route's grant, answers and
 * errors, and is charged to the principal's rate limit as the route is.
 *
 * Who the caller is:
 * - over HTTP, the `Authorization: Bearer …` header of each POST /mcp request
 *   (a session keeps the credential it was started with: Sessions.ts refuses
 *   a request of the session with another);
 * - over stdio, the environment's PSX_API_KEY (the process is its user's).
 * Without one the tools are neither listed nor callable (a call is "tool not
 * found"); with one they are listed, and each call authenticates it again
 * through the route: an unknown or revoked key is the route's 401 record, a
 * key without the route's grant its 403 record.
 */
import { Config, Context, Effect, Layer, Option, Redacted } from "effect"
import { McpServer } from "effect/ai"
import type { Headers } from "effect/http"
import type { HttpApiEndpoint } from "effect/http-api"
import { RequiredGrant } from "../ledger/accounts/BearerAuth.ts"
import { Keys } from "../ledger/accounts/Keys.ts"
import { PortfolioApi } from "../ledger/LedgerApi.ts"
import { RouteCaller } from "./RouteCaller.ts"
import { callRoute } from "./RouteToolCall.ts"
import { namesOf, type RouteTool, routeTool } from "./RouteTools.ts"

const routes = PortfolioApi.endpoints

/** The days of get_performance's answer: the route's daily rows, or by default none (the periods alone). */
const DAYS = ["none", "weekly", "monthly", "daily"] as const

/** The last row of each week (Monday-based) or month, or every row, or none. */
const sampleDays = (days: ReadonlyArray<{ readonly date: string }>, every: string) => {
  if (every === "daily") return days
  if (every === "none") return []
  const periodOf = (date: string) => {
    if (every === "monthly") return date.slice(0, 7)
    const at = Date.parse(`${date}T00:00:00Z`)
    return String(Math.floor((at / 86_400_000 + 3) / 7))
  }
  return days.filter((d, i) => i === days.length - 1 || periodOf(days[i + 1]!.date) !== periodOf(d.date))
}

/** get_performance's record: the periods, and the daily rows only as asked (`days`; the route's own `days` when it has one). */
const performanceShape = (record: Record<string, unknown>, own: Record<string, unknown>) => {
  const rows = record["days"]
  if (!Array.isArray(rows)) return record
  const every = typeof own["days"] === "string" ? own["days"] : "none"
  const kept = sampleDays(rows as ReadonlyArray<{ readonly date: string }>, every)
  return { ...record, days: kept, ...(every === "daily" ? {} : { days_given: every, days_recorded: rows.length }) }
}

const routeTakes = (endpoint: HttpApiEndpoint.Top, field: string) => namesOf(endpoint.query).includes(field)

/** Each portfolio tool: its name, the route it is, and what it answers in a line. */
export const PORTFOLIO_TOOLS: ReadonlyArray<RouteTool> = [
  routeTool(
    "get_holdings",
    routes.holdings,
    "The portfolio's positions: quantity, average cost, market value at the delayed quote, P/L, dividends."
  ),
  routeTool(
    "get_entitlements",
    routes.entitlements,
    "What recorded payouts owe the portfolio: shares held at the last buy date, gross, tax, net; state due/recorded/dismissed."
  ),
  routeTool(
    "accept_entitlement",
    routes.acceptEntitlement,
    "Record a due entitlement as the dividend (or bonus) it owes, by its id from get_entitlements."
  ),
  routeTool(
    "dismiss_entitlement",
    routes.dismissEntitlement,
    "Dismiss a due entitlement (it was not received), by its id from get_entitlements."
  ),
  routeTool(
    "get_ledger",
    routes.ledger,
    "The portfolio's events, newest first, with positions and hashes; paged with limit and cursor."
  ),
  routeTool(
    "record_transaction",
    routes.transact,
    "Record a buy, sell, dividend, bonus, split, tax status or reversal; no order is placed. Same idempotency_key " +
      "and body: the original answer."
  ),
  routeTool(
    "get_performance",
    routes.performance,
    "1M-1Y/inception returns (TWR, XIRR, total with dividends) against KSE-100 (a total-return index); daily rows only " +
      "as `days` asks.",
    routeTakes(routes.performance, "days") ? {} : {
      own: {
        days: {
          type: "string",
          enum: DAYS,
          description: "none (default); weekly or monthly: each one's last session; daily"
        }
      },
      shape: performanceShape
    }
  ),
  routeTool(
    "get_tax_statement",
    routes.taxStatement,
    "The tax-year statement: realised gains with the capital gains tax rule, dividends and tax withheld."
  )
]

/** The grant each portfolio tool's route needs. */
const GRANT_OF = new Map(
  PORTFOLIO_TOOLS.map((t) => [t.name, Context.getOrUndefined(t.endpoint.annotations, RequiredGrant)])
)

const BEARER = /^\s*bearer\s+\S/iu

/** The request's Authorization header when it carries a bearer credential (checked by the route, not here). */
export const bearerOf = (headers: Headers.Headers) => {
  const authorization = headers["authorization"]
  return authorization !== undefined && BEARER.test(authorization) ? authorization : undefined
}

/** The credential a portfolio tool's route is called with, for one MCP request. */
export class McpCredential extends Context.Service<McpCredential, {
  /** The Authorization header to send, from the MCP request's headers (empty on stdio); undefined: none. */
  readonly of: (headers: Headers.Headers) => string | undefined
}>()("psx/mcp/McpCredential") {
  /** Over HTTP: the request's own bearer Authorization header. */
  static readonly fromRequest = Layer.succeed(McpCredential, McpCredential.of({ of: bearerOf }))

  /** Over stdio: PSX_API_KEY from the environment, for every request of the process. */
  static readonly fromEnvironment = Layer.effect(
    McpCredential,
    Effect.gen(function*() {
      const key = yield* Config.option(Config.Redacted("PSX_API_KEY"))
      const secret = Option.getOrUndefined(Option.map(key, (k) => Redacted.value(k).trim()))
      const authorization = secret === undefined || secret === "" ? undefined : `Bearer ${secret}`
      return McpCredential.of({ of: () => authorization })
    })
  )
}

/**
 * Shows a portfolio tool only to a credential that authenticates now (a revoked key sees none) and holds the
 * grant its route needs; a tool hidden from a caller is, to it, not a tool at all.
 */
const ByGrant = McpServer.visibility(Effect.gen(function*() {
  const credential = yield* McpCredential
  const keys = yield* Keys
  return (options: McpServer.MiddlewareOptions) => {
    const authorization = credential.of(options.headers)
    if (authorization === undefined) return Effect.succeed(false)
    const grant = GRANT_OF.get(options.target)
    return keys.authenticate(authorization.replace(/^\s*bearer\s+/iu, "").trim()).pipe(
      Effect.map((principal) => grant === undefined || principal.grants.includes(grant)),
      Effect.orElseSucceed(() => false)
    )
  }
}))

/** Registers the portfolio tools (on the McpServer in context: give it Bounds.ts's `boundedServer`). */
export const PortfolioToolsLive = Layer.effectDiscard(Effect.gen(function*() {
  const server = yield* McpServer.McpServer
  const caller = yield* RouteCaller
  const credential = yield* McpCredential
  const services = yield* Effect.context<never>()
  const authorization = (outer: Option.Option<{ readonly headers: Headers.Headers }>) =>
    credential.of(Option.match(outer, { onNone: () => ({}) as Headers.Headers, onSome: (r) => r.headers }))
  for (const tool of PORTFOLIO_TOOLS) {
    yield* server.addTool({
      tool: tool.descriptor,
      annotations: Context.empty(),
      services,
      handle: callRoute(caller, tool, authorization)
    })
  }
})).pipe(Layer.provide(ByGrant.layer))
