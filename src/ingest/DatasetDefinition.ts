/**
 * What a dataset of the live refresh is: its kind, route, schedule and table,
 * and its run (fetch and parse, no store access) handing back the write (one
 * transaction) and the write's outcome. The datasets themselves are in
 * PortalDatasets.ts (and NewsDataset.ts); the crawler runs them.
 */
import type { Effect } from "effect"
import type { SqlClient, SqlError } from "effect/sql"
import type { SourceUnavailable } from "../../domain/Errors.ts"
import type { NewsFeeds } from "../sources/NewsFeeds.ts"
import type { PsxPortal } from "../sources/PsxPortal.ts"
import type { Written } from "./Changes.ts"

export interface Outcome extends Written {
  readonly read: number
  readonly skipped: Readonly<Record<string, number>>
  /** The instant the figures are as of (defaults to when they were fetched). */
  readonly asOf?: string
}

export interface RunContext {
  readonly portal: typeof PsxPortal.Service
  /** The publishers' news feeds (the one dataset not read from the portal). */
  readonly feeds: typeof NewsFeeds.Service
  /** Now, epoch ms (from the Clock). */
  readonly now: number
}

/** Writes what was fetched (run in one transaction, after the request has finished). */
export type DatasetWrite = Effect.Effect<Outcome, SqlError.SqlError, SqlClient.SqlClient>
/** Fetches and parses (no store access), handing back the write. */
export type DatasetRun = (key: string, ctx: RunContext) => Effect.Effect<DatasetWrite, SourceUnavailable>

/** Whose figures a dataset holds, when they are not the exchange portal's. */
export interface DatasetProvenance {
  /** The provenance row's id (and the `dataset` column of the rows it writes). */
  readonly id: string
  readonly source: string
  readonly upstream: string
  readonly licence: string
  readonly notes: string
}

export interface PortalDataset {
  /** Kind; the provenance row is `portal_<kind>` unless `provenance` names another owner. */
  readonly kind: string
  readonly title: string
  /** The route, as the portal names it (for provenance and error messages). */
  readonly route: string
  readonly scope: "market" | "symbol"
  /** Due again this long after its last success. */
  readonly everyMs: number
  /** The table whose rows carry this dataset (for row counts and coverage in freshness). */
  readonly table: string
  readonly dateColumn?: string
  /** Also for symbols gone from the listing (default: listed symbols only). */
  readonly includeDelisted?: boolean
  readonly provenance?: DatasetProvenance
  readonly run: DatasetRun
}
