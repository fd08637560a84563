/**
 * The table headers each portal page had when its parser was written (from
 * the recordings). A page whose tables lack them was reorganised: it is
 * refused (SOURCE_UNAVAILABLE naming the route) rather than parsed into
 * rows that may put one column's figures under another's name.
 */
import { tables } from "../../domain/psx/Html.ts"

/** Route → the header cells (upper-cased) one table of the page must all carry. */
const expected: Readonly<Record<string, ReadonlyArray<string>>> = {
  "/screener": [
    "SYMBOL",
    "SECTOR",
    "LISTED IN",
    "MARKET CAP.",
    "PRICE",
    "PE RATIO (TTM)",
    "DIVIDEND YIELD (%)",
    "FREE FLOAT"
  ],
  "/market-watch": ["SYMBOL", "SECTOR", "LISTED IN", "LDCP", "OPEN", "HIGH", "LOW", "CURRENT", "CHANGE", "VOLUME"],
  "/indices/{CODE}": ["SYMBOL", "NAME", "LDCP", "CURRENT", "IDX WTG (%)", "FREEFLOAT (M)", "MARKET CAP (M)"],
  "/sector-summary/sectorwise": ["SECTOR CODE", "SECTOR NAME"],
  "POST /historical": ["DATE", "OPEN", "HIGH", "LOW", "CLOSE", "VOLUME"],
  "POST /company/payouts": ["DATE", "FINANCIAL RESULTS", "DETAILS", "BOOK CLOSURE"],
  "POST /announcements": ["DATE", "TIME", "SYMBOL", "NAME", "TITLE"],
  "/company/{SYM}": ["DATE", "TITLE", "DOCUMENT"]
}

/**
 * `undefined` when the page holds a table with every expected header (or the
 * route has no header check, as `POST /payouts`, a header-less fragment);
 * otherwise the headers the page's tables do carry, for the error message.
 */
export const unknownHeaders = (route: string, html: string): string | undefined => {
  const want = expected[route]
  if (want === undefined) return undefined
  const found = tables(html).map((t) => t.headers.map((h) => h.text.trim().toUpperCase()))
  if (found.some((headers) => want.every((w) => headers.includes(w)))) return undefined
  // A page with no table at all is an empty answer (a holiday, a symbol without rows): the row check reports it.
  if (found.length === 0 || found.every((h) => h.length === 0)) return undefined
  const seen = found.filter((h) => h.length > 0).map((h) => h.join("|")).join("; ")
  return `expected ${want.join("|")}; found ${seen.slice(0, 200)}`
}
