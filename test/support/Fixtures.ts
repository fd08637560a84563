/**
 * The vendored recordings under test/fixtures/ (see the PROVENANCE.md of each
 * area folder), so tests need nothing beside the clone. A recording over
 * 100 kB is stored as `<path>.gz`; `readFixture` unzips it transparently.
 */
import { existsSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { gunzipSync } from "node:zlib"

/** The fixtures folder, absolute, with a trailing slash. */
export const fixturesDir = fileURLToPath(new URL("../fixtures/", import.meta.url))

/** The PSX recordings (paths as in shared/data/psx-raw). */
export const psxFixturesDir = `${fixturesDir}psx/`

/** A recording's text by its path under the area folder (for example `psx`, `mtauha__psxdata/tests/fixtures/symbols.json`). */
export const readFixture = (area: string, path: string): string => {
  const file = `${fixturesDir}${area}/${path}`
  return existsSync(file) ? readFileSync(file, "utf8") : gunzipSync(readFileSync(`${file}.gz`)).toString("utf8")
}

/** A PSX recording's text by its path in shared/data/psx-raw. */
export const readPsx = (path: string): string => readFixture("psx", path)
