import { it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { seedFromImage } from "../../src/db/StoreImage.ts"
import { serveEmbedded } from "../../src/db/EmbeddedPostgres.ts"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { TestApp, TestStore } from "../support/TestApp.ts"
const time = <A, E, R>(label: string, e: Effect.Effect<A, E, R>) => Effect.gen(function*() {
  const t = Date.now(); const a = yield* e; console.log(label, Date.now() - t); return a })
it.live("phases", () => Effect.gen(function*() {
  const dir = mkdtempSync(join(tmpdir(), "probe-"))
  yield* time("copy image", seedFromImage(dir))
  yield* time("boot pglite", serveEmbedded(dir))
  yield* time("TestStore withPack", Layer.build(TestStore({ withPack: true })))
  yield* time("TestApp withPack", Layer.build(TestApp({ withPack: true, now: "2026-06-15T06:00:00.000Z" })))
}).pipe(Effect.scoped), 600_000)
