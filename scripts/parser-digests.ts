/**
 * Records what every parser makes of every recorded HTML page, feed and CSV file (test/support/ParserDigests.ts)
 * into test/fixtures/parsers/digests.json. Run once with the regular-expression parsers, before they were replaced
 * by maintained libraries; test/parsers-equivalence.test.ts checks the current parsers against it.
 *
 *   node scripts/parser-digests.ts          (PSX_RAW_DIR=<path> for recordings not at ../shared/data/psx-raw)
 */
import { writeFileSync } from "node:fs"
import { currentDigests, digestsFile, psxRawDir } from "../test/support/ParserDigests.ts"

if (psxRawDir() === undefined) throw new Error("the shared recordings are not beside this clone: set PSX_RAW_DIR")
const digests = currentDigests()
// One line a file: a change reads as the lines of the files it touched.
const lines = Object.entries(digests).map(([key, byParser]) => `  ${JSON.stringify(key)}: ${JSON.stringify(byParser)}`)
writeFileSync(digestsFile, `{\n${lines.join(",\n")}\n}\n`)
process.stderr.write(`${Object.keys(digests).length} files recorded in ${digestsFile}\n`)
