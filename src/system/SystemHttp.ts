import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { SourceUnavailable } from "../../domain/Errors.ts"
import { Database } from "../db/Database.ts"
import { PackImport } from "../ingest/PackImport.ts"
import { Api } from "../http/Api.ts"
import { livenessResponse } from "../http/Guard.ts"

const ready: "ready" = "ready"

export const SystemHttp = HttpApiBuilder.group(Api, "system", (handlers) =>
  Effect.gen(function*() {
    const db = yield* Database
    const importer = yield* PackImport
    return handlers
      // The guard answers GET /health before routing; this handler serves the same bytes (e.g. HEAD, direct use).
      .handle("health", () => Effect.succeed(livenessResponse))
      .handle("ready", () =>
        Effect.flatMap(db.ping, (ok) =>
          ok
            ? Effect.map(importer.state, (data_pack) => ({ status: ready, database: db.mode, data_pack }))
            : Effect.fail(new SourceUnavailable({ message: `the ${db.mode} database did not answer within a second` }))))
  }))
