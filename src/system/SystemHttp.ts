import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { SourceUnavailable } from "../../domain/Errors.ts"
import { Database } from "../db/Database.ts"
import { PackImport } from "../ingest/PackImport.ts"
import { Api } from "../http/Api.ts"

/** Liveness never changes: its answer is encoded once. */
const healthResponse = HttpServerResponse.jsonUnsafe({ status: "ok", service: "psx-data-service", version: "1.0.0" })

export const SystemHttp = HttpApiBuilder.group(Api, "system", (handlers) =>
  Effect.gen(function*() {
    const db = yield* Database
    const importer = yield* PackImport
    return handlers
      .handle("health", () => Effect.succeed(healthResponse))
      .handle("ready", () =>
        Effect.flatMap(db.ping, (ok) =>
          ok
            ? Effect.map(importer.state, (data_pack) => ({ status: "ready" as const, database: db.mode, data_pack }))
            : Effect.fail(new SourceUnavailable({ message: `the ${db.mode} database did not answer within a second` }))))
  }))
