/** Pure classification of listed lines and text normalisation for search. */

export type SecurityType = "equity" | "etf" | "debt" | "right" | "preference" | "other"

/** Rights, preference shares and debt are told apart by the exchange's own flags and naming. */
export const securityTypeOf = (s: { symbol: string; name: string; isEtf: boolean; isDebt: boolean }): SecurityType => {
  if (s.isDebt) return "debt"
  if (s.isEtf) return "etf"
  if (/\(\s*R\s*\d*\s*\)|\bright\b|\brights\b/i.test(s.name)) return "right"
  if (/\bpref(erence)?\b|\(pref/i.test(s.name)) return "preference"
  return "equity"
}

/** Lower case, accents removed, punctuation folded to spaces: the key `search` matches on. */
export const searchKey = (text: string): string =>
  text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim()
