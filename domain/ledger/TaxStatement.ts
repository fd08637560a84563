/**
 * A tax-year statement from the year's figures (TaxYear.ts): the totals, the figures a Pakistani return asks
 * for, and what the statement does not compute. Pure; sums in paisa.
 */
import { fromPaisa, toPaisa } from "./Money.ts"
import { capitalGainsRules } from "./Taxes.ts"
import { taxYearPeriod, type TaxYearFigures } from "./TaxYear.ts"

export const COST_METHOD = "average cost" as const

/** What the answer says about its cost method (also the OpenAPI description's). */
export const COST_METHOD_NOTE = "Average cost, as the holdings: a buy adds its price × quantity and fees to the position's " +
  "cost; a sale removes the average cost of the shares it sells (rounded to the paisa) and realises proceeds less fees " +
  "less that cost; a bonus or split changes the quantity and keeps the cost, so bonus shares come at zero cost and " +
  "lower the average. Holding periods date the shares sold first in, first out (bonus shares from their credit date); " +
  "the cost stays average."

const sum = <A>(items: ReadonlyArray<A>, f: (a: A) => number) => items.reduce((s, a) => s + toPaisa(f(a)), 0)

const totalsOf = (f: TaxYearFigures) => {
  const gains = sum(f.sales.filter((s) => s.gain > 0), (s) => s.gain)
  const losses = -sum(f.sales.filter((s) => s.gain < 0), (s) => s.gain)
  const covered = f.sales.filter((s) => s.capital_gains_tax !== undefined)
  const rule = capitalGainsRules.find((r) => r.id === covered[0]?.capital_gains_tax?.rule)
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
    ...(rule !== undefined
      ? {
        capital_gains_tax: {
          rule: rule.id,
          rate_pct: rule.filer_pct,
          gains_covered: fromPaisa(sum(covered.filter((s) => s.gain > 0), (s) => s.gain)),
          losses_covered: fromPaisa(-sum(covered.filter((s) => s.gain < 0), (s) => s.gain)),
          tax_at_rate: fromPaisa(sum(covered, (s) => s.capital_gains_tax!.amount)),
          note: "The rate on each covered sale's gain, added up; losses are not set off and none are carried from " +
            "other years (no such rule is recorded here), and the tax actually collected at source is not held by the ledger."
        }
      }
      : {}),
    dividends: { count: f.dividends.length, gross: fromPaisa(gross), tax_withheld: fromPaisa(withheld), net: fromPaisa(gross - withheld) },
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
    note: `Gains Rs ${t.sales.gains} less losses Rs ${t.sales.losses} over ${t.sales.count} sale(s), by trade date. The return ` +
      "takes them by when the shares were bought (from 1 Jul 2024: 15% for a filer; earlier purchases and non-filers: " +
      "rates not recorded here, none computed) with the capital gains tax collected at source (NCCPL's statement), " +
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
    note: "As recorded on each dividend: by the dated withholding rule and the filer status, or as the warrant shows; " +
      "a dividend recorded with no tax counts 0 here (check its warrant)."
  },
  {
    item: "Bonus shares received",
    amount: t.bonuses.shares_received,
    note: "Shares, not rupees: received at zero cost (the position's average cost falls). No tax is computed on them: " +
      "no dated rule is recorded."
  },
  {
    item: "Donations",
    amount: t.donations.amount,
    note: "Donation records in this portfolio's ledger, created pending: no payment was taken by this service. A return " +
      "claims only donations paid to an approved institution, with its receipt."
  },
  {
    item: `Listed shares held on ${end}, at cost (wealth statement)`,
    amount: fromPaisa(sum(f.closing_positions, (p) => p.cost)),
    note: "Average cost of each position held at the end of the period (closing_positions)."
  }
]

/** The statement of tax year `year` for a portfolio, as of `today` (Asia/Karachi). */
export const taxStatementOf = (portfolio: string, year: number, today: string, f: TaxYearFigures) => {
  const period = taxYearPeriod(year)
  const complete = today > period.to
  const totals = totalsOf(f)
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
