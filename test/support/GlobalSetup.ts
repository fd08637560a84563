/**
 * vitest global setup: makes the pack's prebuilt store once before any test
 * file runs (test/support/PackTemplate.ts), so each file that needs the pack
 * copies it in about a second instead of importing it.
 */
import { Effect } from "effect"
import { buildImage } from "../../src/ingest/PackImage.ts"
import { buildTemplate } from "./PackTemplate.ts"

export default async function setup() {
  const url = process.env["DATABASE_URL"]
  await Effect.runPromise(url !== undefined && url !== "" ? buildTemplate(url) : Effect.asVoid(buildImage))
}
