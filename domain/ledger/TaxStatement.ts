/**
 * A tax-year statement from the year's figures (TaxYear.ts): the totals, the figures a Pakistani return asks
 * for, and what the statement does not compute. Pure; sums in paisa.
 */
import { CARRY_FORWARD_YEARS, type CoveredResult, coveredResultOf, setOffOf } from "./LossSetOff.ts"
import { fromPaisa, mulDiv, toPaisa } from "./Money.ts"
import { capitalGainsRules } from "./Taxes.ts"
import { type TaxYearFigures, taxYearPeriod } from "./TaxYear.ts"

export const COST_METHOD = "average cost" as const

/** What the answer says about its cost method (also the OpenAPI description's). */
export const COST_METHOD_NOTE =
  "Average cost, as the holdings: a buy adds its price × quantity and fees to the position's " +
  "cost; a sale removes the average cost of the shares it sells (rounded to the paisa) and realises proceeds less fees " +
  "less that cost; a bonus or split changes the quantity and keeps the cost, so bonus shares come at zero cost and " +
  "lower the average. Holding periods date the shares sold first in, first out (bonus shares from their credit date); " +
  "the cost stays average."

const sum = <A>(items: ReadonlyArray<A>, f: (a: A) => number) => items.reduce((s, a) => s + toPaisa(f(a)), 0)

/** The covered sales' capital gains tax for the year: their losses set off against their gains, then the losses brought forward. */
const capitalGainsTaxOf = (year: number, f: TaxYearFigures, earlier: ReadonlyArray<CoveredResult>) => {
  const covered = f.sales.filter((s) => s.capital_gains_tax !== undefined)
  const result = coveredResultOf(year, f.sales)
  const s = setOffOf(earlier, result)
  const rule = capitalGainsRules.find((r) => r.id === covered[0]?.capital_gains_tax?.rule) ?? capitalGainsRules[0]
  if (rule === undefined || (covered.length === 0 && s.brought_forward.length === 0)) return {}
  return {
    capital_gains_tax: {
      rule: rule.id,
      rate_pct: rule.filer_pct,
      gains_covered: fromPaisa(result.gains),
      losses_covered: fromPaisa(result.losses),
      net_covered: fromPaisa(s.net),
      losses_brought_forward: s.brought_forward.map((b) => ({
        from_tax_year: b.from_tax_year,
        available: fromPaisa(b.available),
        set_off: fromPaisa(b.set_off),
        carried_forward: fromPaisa(b.carried_forward),
        last_tax_year: b.last_tax_year
      })),
      taxable_gain: fromPaisa(s.taxable),
      tax_at_rate: fromPaisa(mulDiv(s.taxable, Math.round(rule.filer_pct * 100), 10_000)),
      loss_carried_forward: fromPaisa(s.loss_carried_forward),
      note:
        "Section 37A: the covered sales' losses are set off against their gains in the year; a net loss is carried " +
        `forward to the next ${CARRY_FORWARD_YEARS} tax years against such gains only, oldest first (losses_brought_forward, from this ` +
        "ledger's own earlier years). The rate applies to the net gain left (taxable_gain). Sales no dated rule covers " +
        "(non-filers, shares bought before 1 Jul 2024) are not set off here. The tax actually collected at source " +
        "(NCCPL) is not held by the ledger."
    }
  }
}

const totalsOf = (year: number, f: TaxYearFigures, earlier: ReadonlyArray<CoveredResult>) => {
  const gains = sum(f.sales.filter((s) => s.gain > 0), (s) => s.gain)
  const losses = -sum(f.sales.filter((s) => s.gain < 0), (s) => s.gain)
  const gross = sum(f.dividends, (d) => d.gross), withheld = sum(f.dividends, (d) => d.tax_withheld)
  return {
    sales: {
      count: f.sales.length,
      proceeds: fromPaisa(sum(f.sales, (s) => s.proceeds)),
      cost: fromPaisa(sum(f.sales, (s) => s.cost)),
      gains: fromPaisa(gains),
      losses: fromPaisa(losses),
      net_gain: fromPaisa(gains - losses)
    },
    ...capitalGainsTaxOf(year, f, earlier),
    dividends: {
      count: f.dividends.length,
      gross: fromPaisa(gross),
      tax_withheld: fromPaisa(withheld),
      net: fromPaisa(gross - withheld)
    },
    bonuses: { count: f.bonuses.length, shares_received: f.bonuses.reduce((s, b) => s + b.shares_received, 0) },
    donations: { count: f.donations.length, amount: fromPaisa(sum(f.donations, (d) => d.amount)) }
  }
}

type Totals = ReturnType<typeof totalsOf>

/** The figures a return for the year needs, each with where it stands in this statement. */
const returnNeeds = (t: Totals, f: TaxYearFigures, end: string) => [
  {
    item: "Capital gain or loss on listed securities",
    amount: t.sales.net_gain,
    note:
      `Gains Rs ${t.sales.gains} less losses Rs ${t.sales.losses} over ${t.sales.count} sale(s), by trade date. The return ` +
      "takes them by when the shares were bought (from 1 Jul 2024: 15% for a filer on the net gain after losses are set " +
      "off and losses brought forward, section 37A; earlier purchases and non-filers: rates not recorded here, none computed) with the capital gains tax collected at source (NCCPL's statement), " +
      "which the ledger does not hold."
  },
  {
    item: "Dividends received, gross",
    amount: t.dividends.gross,
    note: "By payment date; each payout below with its book closure and the shares entitled."
  },
  {
    item: "Tax withheld on dividends",
    amount: t.dividends.tax_withheld,
    note:
      "As recorded on each dividend: by the dated withholding rule and the filer status, or as the warrant shows; " +
      "a dividend recorded with no tax counts 0 here (check its warrant)."
  },
  {
    item: "Bonus shares received",
    amount: t.bonuses.shares_received,
    note:
      "Shares, not rupees: received at zero cost (the position's average cost falls). No tax is computed on them: " +
      "no dated rule is recorded."
  },
  {
    item: "Donations",
    amount: t.donations.amount,
    note:
      "Donation records in this portfolio's ledger, created pending: no payment was taken by this service. A return " +
      "claims only donations paid to an approved institution, with its receipt."
  },
  {
    item: `Listed shares held on ${end}, at cost (wealth statement)`,
    amount: fromPaisa(sum(f.closing_positions, (p) => p.cost)),
    note: "Average cost of each position held at the end of the period (closing_positions)."
  }
]

/** The statement of tax year `year` for a portfolio, as of `today` (Asia/Karachi), after the earlier years' covered results. */
export const taxStatementOf = (
  portfolio: string,
  year: number,
  today: string,
  f: TaxYearFigures,
  earlier: ReadonlyArray<CoveredResult>
) => {
  const period = taxYearPeriod(year)
  const complete = today > period.to
  const totals = totalsOf(year, f, earlier)
  return {
    portfolio,
    tax_year: year,
    period,
    as_of: today,
    complete,
    cost_method: COST_METHOD,
    cost_method_note: COST_METHOD_NOTE,
    ...f,
    totals,
    return_needs: returnNeeds(totals, f, complete ? period.to : today),
    notes: [
      ...(complete ? [] : [`The tax year is not over: figures to ${today}.`]),
      "Reversed events are left out. Figures are the ledger's as recorded; market prices are not used."
    ]
  }
}
