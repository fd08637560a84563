/**
 * vitest global setup: makes the pack's prebuilt store once before any test file runs
 * (test/support/PackTemplate.ts), so each file that needs the pack copies it in about a second instead of
 * importing it. It names the run (PSX_TEST_RUN, PSX_TEST_DIR) and, at the end, removes what the run's files
 * left: the embedded stores' directory and the throwaway PostgreSQL databases.
 */
import { PgClient } from "@effect/sql-pg"
import { Effect, Redacted } from "effect"
import { Reactivity } from "effect/reactivity"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { buildImage } from "../../src/ingest/PackImage.ts"
import { buildEmptyImage, buildTemplate } from "./PackTemplate.ts"

const databaseUrl = () => {
  const url = process.env["DATABASE_URL"]
  return url !== undefined && url !== "" ? url : undefined
}

/** Drops the throwaway databases whose names carry this run's tag. */
const dropRunDatabases = (url: string, tag: string) =>
  Effect.gen(function*() {
    const admin = new URL(url)
    admin.pathname = "/postgres"
    const client = yield* PgClient.make({ url: Redacted.make(admin.toString()), maxConnections: 1 })
    const rows = yield* client.unsafe<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE $1`,
      [`psx_test_${tag}_%`]
    )
    for (const { datname } of rows) yield* client.unsafe(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`)
  }).pipe(Effect.scoped, Effect.provide(Reactivity.layer), Effect.ignore)

export default async function setup() {
  const url = databaseUrl()
  await Effect.runPromise(
    url !== undefined ? buildTemplate(url) : Effect.asVoid(Effect.all([buildImage, buildEmptyImage]))
  )
  const tag = `${process.pid}${Date.now().toString(36)}`
  const directory = mkdtempSync(join(tmpdir(), "psx-run-"))
  process.env["PSX_TEST_RUN"] = tag
  process.env["PSX_TEST_DIR"] = directory
  return async () => {
    if (url !== undefined) await Effect.runPromise(dropRunDatabases(url, tag))
    rmSync(directory, { recursive: true, force: true })
  }
}
