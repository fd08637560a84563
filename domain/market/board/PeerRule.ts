/**
 * The one inclusion rule for a sector's peers and every sector median
 * (the sector board, /v1/sectors/{id}/peers and /valuation, a stock's
 * sector medians and peers, and /valuation's medians): a line counts when
 * it traded in the PEER_SESSIONS sessions up to the market's latest
 * recorded session. A line that stopped trading (ENGRO, last trade
 * 2025-01-03; FFBL, merged into FFC, last trade 2024-12-20) keeps the
 * exchange's last figures for it, which are not current: it is left out and
 * counted, never entered as a 0.
 */
import { karachiDate, previousTradingDay } from "../calendar/Calendar.ts"
import type { MarketSnapshot, SymbolData } from "../snapshot/Snapshot.ts"

/**
 * Sessions, up to the latest, in which a line must have traded to count as a peer.
 *
 * - The market's latest session: the newest Karachi day of any delayed quote.
 * - A line's last trade: the newest day of its price history with a volume
 *   that is not 0 (a row without a volume counts: a close is recorded), or
 *   its quote's day when that quote has such a volume and is newer.
 * - The window: the latest session and the PEER_SESSIONS − 1 trading days
 *   before it (exchange calendar, Calendar.ts).
 */
export const PEER_SESSIONS = 20

/** The rule in words, for the OpenAPI description and the MCP tools. */
export const PEER_RULE =
  `Peers and every sector median count the sector's ordinary lines (no rights, preference, debt ` +
  `or futures lines) that traded in the ${PEER_SESSIONS} sessions up to the market's latest recorded session (the newest ` +
  "day of any delayed quote): a line's last trade is the newest day of its price history or quote with a volume that " +
  "is not 0. A line with no recorded trade in that window, or none at all, is left out of peers and medians and counted " +
  "in not_trading (ENGRO, last trade 2025-01-03; FFBL, merged into FFC, 2024-12-20): the exchange's screener keeps " +
  "showing its last figures, which are not current."

/** The newest Karachi day of any quote in the snapshot; undefined without quotes. */
export const latestSession = (snapshot: MarketSnapshot): string | undefined => {
  let date: string | undefined
  for (const data of snapshot.symbols.values()) {
    const q = data.quote
    if (q === undefined) continue
    const day = karachiDate(Date.parse(q.as_of))
    if (date === undefined || day > date) date = day
  }
  return date
}

/** The first session of the window ending on `latest`. */
export const peerWindowStart = (latest: string): string => {
  let d = latest
  for (let i = 1; i < PEER_SESSIONS; i++) d = previousTradingDay(d)
  return d
}

/** A line's last recorded trade (see `PEER_SESSIONS`), or undefined when none is recorded. */
export const lastTrade = (data: SymbolData): string | undefined => {
  const s = data.prices
  let last: string | undefined
  if (s !== undefined) {
    for (let i = s.dates.length - 1; i >= 0; i--) {
      if (s.volume[i] !== 0 && s.flag[i] === undefined) {
        last = s.dates[i]
        break
      }
    }
  }
  const q = data.quote
  if (q !== undefined && q.volume !== 0) {
    const day = karachiDate(Date.parse(q.as_of))
    if (last === undefined || day > last) last = day
  }
  return last
}

/** Whether a line whose last trade is `last` traded in the window starting `windowStart` (no window: every line counts). */
export const tradedSince = (last: string | undefined, windowStart: string | undefined): boolean =>
  windowStart === undefined || (last !== undefined && last >= windowStart)

const windows = new WeakMap<MarketSnapshot, { readonly start: string | undefined }>()

/** The snapshot's peer window start (memoised per snapshot); undefined when no quote is recorded. */
export const snapshotPeerWindow = (snapshot: MarketSnapshot): string | undefined => {
  let w = windows.get(snapshot)
  if (w === undefined) {
    const latest = latestSession(snapshot)
    w = { start: latest === undefined ? undefined : peerWindowStart(latest) }
    windows.set(snapshot, w)
  }
  return w.start
}

/** Whether the symbol counts as a peer in the snapshot (the rule above). */
export const isTradingPeer = (snapshot: MarketSnapshot, data: SymbolData | undefined): boolean =>
  data !== undefined && tradedSince(lastTrade(data), snapshotPeerWindow(snapshot))
