/**
 * The filings inventory of essashahid/psx-portfolio-app: for 43
 * symbols, the latest interim and annual report an app found among PSX's
 * announcements as of 2026-07-21, each with the exchange's date and the
 * document's address. Filings already in the pack (same document id) are
 * not repeated. Called by scripts/pack-research.ts.
 */
import type { PackProvenance } from "../domain/pack/Pack.ts"
import { parseFilingsInventory } from "../domain/psx/CompanyAnnouncements.ts"
import type { Announcement } from "../domain/psx/Filings.ts"

const PATH = "essashahid__psx-portfolio-app/data/filings-inventory.json"

export const filingsInventory = (
  w: {
    readonly read: (path: string) => string
    readonly add: (p: Omit<PackProvenance, "bytes" | "sha256">, value: unknown) => void
  },
  newFilings: (rows: ReadonlyArray<Announcement>, skipped: Record<string, number>) => ReadonlyArray<Announcement>
) => {
  const parsed = parseFilingsInventory(JSON.parse(w.read(PATH)))
  const skipped: Record<string, number> = { ...parsed.skipped }
  const rows = newFilings(parsed.rows, skipped)
  w.add({
    id: "announcements_filings_inventory",
    file: "announcements_filings_inventory.json",
    title: "Latest interim and annual report filings of 43 symbols (PSX announcements), as of 2026-07-21",
    source:
      "PSX data portal announcements (the document links /download/document/{id}.pdf), as found by the app's filings inventory",
    upstream: "https://dps.psx.com.pk/company/{SYMBOL}",
    path: PATH,
    repository: "github.com/essashahid/psx-portfolio-app",
    commit: "e3ecc8577da4f11f729576f075a96df824209cbe",
    licence: "none found (internal use only); data © Pakistan Stock Exchange",
    recordedAt: "2026-07-21",
    asOf: "2026-07-21",
    rows: rows.length,
    skipped,
    notes:
      "Each filing's date is the exchange's, without a time: published_on is that Karachi date and published_at is absent. " +
      "Only the latest interim and annual report of each of the 43 symbols is listed: other filings of those symbols are not in this " +
      "recording. The PDFs themselves were not recorded."
  }, rows)
}
