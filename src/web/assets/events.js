// One line of text for a ledger event, shared by the portfolio history and
// the ledger page. Payloads are shown as recorded; nothing is computed here.

const qty = new Intl.NumberFormat("en-US", { maximumFractionDigits: 4 })
const money = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })

const DESCRIBE = {
  TradeRecorded: (p) => ({
    kind: p.side === "sell" ? "Sell" : "Buy",
    details: `${qty.format(p.quantity)} at ${money.format(p.price)}${p.fees ? `, fees ${money.format(p.fees)}` : ""}; settles ${p.settlement_date}`
  }),
  DividendRecorded: (p) => ({
    kind: "Dividend",
    details: `gross ${money.format(p.gross_amount)}, tax ${money.format(p.tax_withheld)}, net ${money.format(p.net_amount)}`
  }),
  BonusRecorded: (p) => ({ kind: "Bonus", details: `${p.percent}%: ${qty.format(p.shares_added)} shares added` }),
  SplitRecorded: (p) => ({ kind: "Split", details: `${p.numerator} for ${p.denominator}` }),
  TransactionReversed: (p) => ({ kind: "Reversal", details: `reverses ${p.reverses}: ${p.reason}` }),
  DonationRecorded: (p) => ({ kind: "Donation", details: `${money.format(p.amount)} ${p.currency}, ${p.status}` })
}

export const describeEvent = (event) => {
  const p = event.payload && typeof event.payload === "object" ? event.payload : {}
  const describe = DESCRIBE[event.type]
  const d = describe ? describe(p) : { kind: event.type, details: "" }
  return { ...d, symbol: typeof p.symbol === "string" ? p.symbol : undefined }
}
