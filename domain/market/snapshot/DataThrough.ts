/**
 * The last day of each dataset a snapshot holds: the newest day that has data in it, read from the rows
 * themselves, so a point-in-time snapshot (built from the rows known at its instant) names the days known
 * then. Market answers carry it as the `X-Data-Through` header, so a reader asking for "the last 30 days"
 * knows where each dataset ends.
 */
import { karachiDate } from "../../Karachi.ts"
import type { MarketSnapshot } from "./Snapshot.ts"

/** The datasets named, in the order the header gives them. */
export const DATA_THROUGH_DATASETS = [
  "prices",
  "index",
  "screener",
  "company_pages",
  "payouts",
  "filings",
  "news"
] as const
export type DataThroughDataset = (typeof DATA_THROUGH_DATASETS)[number]

/** The Karachi day of a date or an instant; undefined for anything else (a month alone names no day). */
const dayOf = (text: string | undefined): string | undefined => {
  if (text === undefined) return undefined
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return text
  if (text.length <= 10) return undefined
  const at = Date.parse(text)
  return Number.isNaN(at) ? undefined : karachiDate(at)
}

const later = (a: string | undefined, b: string | undefined) =>
  a === undefined ? b : b === undefined ? a : a > b ? a : b

/** Each dataset's last day in the snapshot; a dataset with no dated row is left out. */
export const dataThrough = (snapshot: MarketSnapshot): ReadonlyMap<DataThroughDataset, string> => {
  const last = new Map<DataThroughDataset, string | undefined>()
  const note = (dataset: DataThroughDataset, day: string | undefined) =>
    last.set(dataset, later(last.get(dataset), day))
  for (const data of snapshot.symbols.values()) {
    note("prices", data.prices?.dates.at(-1))
    note("screener", dayOf(data.fundamentals?.as_of))
    note("company_pages", dayOf(data.profile?.as_of))
    for (const payout of data.payouts) note("payouts", dayOf(payout.announcedAt))
  }
  for (const closes of snapshot.indexCloses.values()) note("index", closes.dates.at(-1))
  for (const level of snapshot.indexLevels) note("index", dayOf(level.as_of))
  // Both lists are newest first.
  note("filings", snapshot.announcements[0]?.published_on)
  note("news", dayOf(snapshot.news[0]?.published_at))
  const days = new Map<DataThroughDataset, string>()
  for (const dataset of DATA_THROUGH_DATASETS) {
    const day = last.get(dataset)
    if (day !== undefined) days.set(dataset, day)
  }
  return days
}

const texts = new WeakMap<MarketSnapshot, string>()

/** The `X-Data-Through` value of a snapshot (`prices=2026-05-25, news=2026-08-07, …`), made once per snapshot. */
export const dataThroughHeader = (snapshot: MarketSnapshot): string => {
  let text = texts.get(snapshot)
  if (text === undefined) {
    text = [...dataThrough(snapshot)].map(([dataset, day]) => `${dataset}=${day}`).join(", ")
    texts.set(snapshot, text)
  }
  return text
}
