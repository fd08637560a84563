/**
 * Builds the prebuilt store image (src/ingest/PackImage.ts) for the bundled pack,
 * once: a later run with the same pack, migrations and PGlite does nothing.
 * With it, the first `npm start` on an empty data directory copies the image
 * instead of importing the pack (seconds instead of tens of seconds).
 *
 *   npm run setup
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Console, Effect } from "effect"
import { buildImage } from "../src/ingest/PackImage.ts"

NodeRuntime.runMain(Effect.gen(function*() {
  const started = Date.now()
  const path = yield* buildImage
  yield* Console.log(`store image ready: ${path} (${((Date.now() - started) / 1000).toFixed(1)} s)`)
}))
