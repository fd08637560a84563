/** The tax-year statement's endpoint, in the portfolio group (src/ledger/LedgerApi.ts). */
import { Schema } from "effect"
import { HttpApiEndpoint, OpenApi } from "effect/http-api"
import { Forbidden, InvalidRequest, SourceUnavailable, Unauthorized } from "../../../domain/Errors.ts"
import { COST_METHOD_NOTE } from "../../../domain/ledger/TaxStatement.ts"
import { TaxStatement, TaxYearParam } from "../../../domain/ledger/TaxStatementSchemas.ts"
import { RequiredGrant } from "../accounts/BearerAuth.ts"

const TAX_STATEMENT =
  "Grant portfolio:read. Pakistan's tax year runs from 1 July to 30 June and is named by the year it " +
  "ends (tax_year=2026: 2025-07-01 to 2026-06-30); default the current one (in Asia/Karachi), a year not yet begun is " +
  "400 INVALID_REQUEST. A sale belongs to the year of its trade date, a dividend or bonus to that of its credit date, a " +
  "donation to that of its recording; reversed events are left out.\n\n" +
  "Cost method: " + COST_METHOD_NOTE +
  " Each sale: proceeds, the cost removed, the gain (what it adds to the holdings' " +
  "realized_pnl), the lots sold with their days held. Each dividend: gross, tax withheld and net as recorded (per share = " +
  "percent × the face value in force), with its book closure and shares entitled. Each bonus: the whole shares received at " +
  "zero cost and the average cost before and after (as the holdings show it). Donations recorded in this portfolio's " +
  "ledger (POST /v1/me/donations). closing_positions: the positions at cost at the end of the period (wealth statement).\n\n" +
  "Tax is computed only by a dated rule: dividend withholding as each dividend recorded it (15% filers, 30% non-filers, or " +
  "the warrant's figure); capital gains tax at 15% on a sale's gain only for a filer (status in force on the trade date) " +
  "whose every share held was bought from 1 Jul 2024 (rule cgt-securities-2024-07). No rate is recorded for non-filers, " +
  "for shares bought earlier or for bonus shares, so none is computed. Losses are set off (section 37A): the covered " +
  "sales' losses against their gains in the year, then the net losses of this ledger's earlier tax years, oldest first, " +
  "each for three tax years after its own (`losses_brought_forward`, one line each); the rate applies to what is left " +
  "(`taxable_gain`), and a year's net loss is `loss_carried_forward`. The tax collected at source is not known. `return_needs` lists the figures a return asks for and what the statement holds of each."

export const taxEndpoints = [
  HttpApiEndpoint.get("taxStatement", "/v1/me/tax-statement", {
    query: { tax_year: Schema.optional(TaxYearParam) },
    success: TaxStatement,
    error: [Unauthorized, Forbidden, InvalidRequest, SourceUnavailable]
  }).annotate(RequiredGrant, "portfolio:read").annotateMerge(
    OpenApi.annotations({ summary: "Get the tax-year statement", description: TAX_STATEMENT })
  )
] as const
