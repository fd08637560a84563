/** The tax-year statement's schemas (GET /v1/me/tax-statement): one definition for HTTP and OpenAPI. */
import { Schema } from "effect"
import { COST_METHOD, COST_METHOD_NOTE } from "./TaxStatement.ts"
import { FIRST_TAX_YEAR } from "./TaxYear.ts"

const opt = <S extends Schema.Top>(s: S) => Schema.optionalKey(s)
const d = <S extends Schema.Top>(s: S, description: string) => s.annotate({ description })
const IsoDate = Schema.String.check(Schema.isPattern(/^\d{4}-\d{2}-\d{2}$/u))
const Rupees = (description: string) => d(Schema.Finite, `Rupees, two decimals: ${description}`)

/** The query's tax year: bounded here; a year after the current one is refused by the service (400). */
export const TaxYearParam = Schema.Int.check(Schema.isBetween({ minimum: FIRST_TAX_YEAR, maximum: 2100 })).annotate({
  description:
    `A tax year, named by the year it ends (2026: 1 July 2025 to 30 June 2026), ${FIRST_TAX_YEAR} to the current ` +
    "one; default the current one"
})

const SoldLot = Schema.Struct({
  acquired: IsoDate,
  quantity: Schema.Int,
  how: Schema.Literals(["buy", "bonus"]),
  days: d(Schema.Int, "Calendar days from acquisition to the sale (trade dates)")
})

const CapitalGainsTax = Schema.Struct({
  rule: Schema.String,
  rate_pct: Schema.Finite,
  amount: Rupees(
    "the rate on this sale's gain alone (0 on a loss), before losses are set off: the year's tax is totals.capital_gains_tax.tax_at_rate"
  )
})

export const SaleLine = Schema.Struct({
  event_id: Schema.String,
  symbol: Schema.String,
  trade_date: IsoDate,
  settlement_date: IsoDate,
  quantity: Schema.Int,
  price: Schema.Finite,
  fees: Schema.Finite,
  proceeds: Rupees("quantity × price less fees"),
  cost: Rupees("the average cost of the shares sold"),
  average_cost: d(Schema.Finite, "Rupees per share before the sale (four decimals, as the holdings)"),
  gain: Rupees("proceeds less cost (negative: a loss); what the sale adds to realized_pnl"),
  lots: d(Schema.Array(SoldLot), "The shares sold, dated first in, first out"),
  holding_days_min: Schema.Int,
  holding_days_max: Schema.Int,
  position_acquired_from: d(
    IsoDate,
    "The earliest acquisition among every share held when sold (average cost pools them)"
  ),
  filer: opt(d(Schema.Boolean, "The filer status recorded as in force on the trade date")),
  capital_gains_tax: opt(
    d(
      CapitalGainsTax,
      "Only where a dated rule covers the sale: a filer, every share held bought on or after the rule's date"
    )
  ),
  tax_note: opt(d(Schema.String, "Why no capital gains tax is computed"))
})

export const DividendLine = Schema.Struct({
  event_id: Schema.String,
  symbol: Schema.String,
  credit_date: d(
    IsoDate,
    "The dividend event's date (its trade_date): for a payout accepted from /v1/me/entitlements, the " +
      "last day of its book closure, as there. Not the day the cash was paid, which no recording gives"
  ),
  book_closure_from: opt(IsoDate),
  entitlement_date: opt(d(IsoDate, "The last buy date: the shares held at its end are entitled")),
  shares: opt(Schema.Int),
  per_share: opt(Schema.Finite),
  gross: Rupees("before tax"),
  tax_withheld: Rupees("as recorded"),
  net: Rupees("gross less tax withheld"),
  tax_basis: d(
    Schema.Literals(["rule", "warrant", "none"]),
    "rule: the dated withholding rule; warrant: as the warrant shows; none: no tax recorded"
  ),
  tax_rule: opt(
    d(
      Schema.String,
      "The withholding rule's id. wht-dividend-2019-07: its rates are sourced (docs/PSX-FACTS.md), " +
        "its start date is not"
    )
  ),
  tax_rate_pct: opt(Schema.Finite),
  filer: opt(Schema.Boolean)
})

export const BonusLine = Schema.Struct({
  event_id: Schema.String,
  symbol: Schema.String,
  credit_date: IsoDate,
  percent: Schema.Finite,
  book_closure_from: opt(IsoDate),
  shares_received: d(Schema.Int, "Whole shares credited"),
  fractional_entitlement: d(Schema.Finite, "The fraction of a share owed as cash (its rupees are not recorded)"),
  cost: d(Schema.Literal(0), "Bonus shares come at zero cost"),
  quantity_after: Schema.Int,
  position_cost: Rupees("the position's cost, unchanged by the bonus"),
  average_cost_before: opt(Schema.Finite),
  average_cost_after: opt(
    d(Schema.Finite, "Lower by the bonus: the same cost over more shares, as the holdings show it")
  )
})

export const DonationLine = Schema.Struct({
  event_id: Schema.String,
  donation_id: Schema.String,
  date: IsoDate,
  amount: Rupees("as recorded"),
  status: d(Schema.String, "pending: no payment was taken by this service"),
  note: opt(Schema.String)
})

const ClosingPosition = Schema.Struct({
  symbol: Schema.String,
  quantity: Schema.Int,
  cost: Rupees("average cost of the position"),
  average_cost: opt(Schema.Finite)
})

const Totals = Schema.Struct({
  sales: Schema.Struct({
    count: Schema.Int,
    proceeds: Schema.Finite,
    cost: Schema.Finite,
    gains: Rupees("the sum of the sales with a gain"),
    losses: Rupees("the sum of the losses, as a positive figure"),
    net_gain: Rupees("gains less losses")
  }),
  capital_gains_tax: opt(Schema.Struct({
    rule: Schema.String,
    rate_pct: Schema.Finite,
    gains_covered: Rupees("the gains of the sales the rule covers"),
    losses_covered: Rupees("their losses, as a positive figure"),
    net_covered: Rupees("gains_covered less losses_covered (negative: a net loss)"),
    losses_brought_forward: d(
      Schema.Array(Schema.Struct({
        from_tax_year: Schema.Int,
        available: Rupees("what was left of it at the start of this tax year"),
        set_off: Rupees("set off against this year's net gain"),
        carried_forward: Rupees("left for later years (0 in its last year: the rest lapses)"),
        last_tax_year: d(Schema.Int, "The third tax year after its own: the last it may be set off in")
      })),
      "Net losses of this ledger's earlier tax years (section 37A), oldest first, each as it stands against this year"
    ),
    taxable_gain: Rupees("net_covered less the losses brought forward set off, never below 0"),
    tax_at_rate: Rupees("rate_pct × taxable_gain (half up to the paisa)"),
    loss_carried_forward: Rupees("this year's own net loss, carried forward to the next three tax years"),
    note: Schema.String
  })),
  dividends: Schema.Struct({
    count: Schema.Int,
    gross: Schema.Finite,
    tax_withheld: Schema.Finite,
    net: Schema.Finite
  }),
  bonuses: Schema.Struct({ count: Schema.Int, shares_received: Schema.Int }),
  donations: Schema.Struct({ count: Schema.Int, amount: Schema.Finite })
})

export const TaxStatement = Schema.Struct({
  portfolio: Schema.String,
  tax_year: Schema.Int,
  period: Schema.Struct({ from: IsoDate, to: IsoDate }),
  as_of: d(IsoDate, "Today in Asia/Karachi"),
  complete: d(Schema.Boolean, "Whether the tax year has ended"),
  cost_method: d(Schema.Literal(COST_METHOD), COST_METHOD_NOTE),
  cost_method_note: Schema.String,
  sales: Schema.Array(SaleLine),
  dividends: Schema.Array(DividendLine),
  bonuses: Schema.Array(BonusLine),
  donations: Schema.Array(DonationLine),
  closing_positions: d(
    Schema.Array(ClosingPosition),
    "Positions at the end of the period (or today, before it ends), at cost"
  ),
  totals: Totals,
  return_needs: d(
    Schema.Array(Schema.Struct({ item: Schema.String, amount: Schema.Finite, note: Schema.String })),
    "The figures a return for the year asks for, with what this statement holds of each"
  ),
  notes: Schema.Array(Schema.String)
})
