import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { SourceUnavailable } from "../../domain/Errors.ts"
import { Api } from "../http/Api.ts"
import { livenessResponse } from "../http/Guard.ts"
import { Readiness } from "./Readiness.ts"

const ready: "ready" = "ready"

export const SystemHttp = HttpApiBuilder.group(Api, "system", (handlers) =>
  Effect.gen(function*() {
    const readiness = yield* Readiness
    return handlers
      // The guard answers GET /health before routing; this handler serves the same bytes (e.g. HEAD, direct use).
      .handle("health", () => Effect.succeed(livenessResponse))
      // From memory (Readiness.ts): never waits on the store.
      .handle("ready", () =>
        Effect.flatMap(readiness.report, ({ data_pack, database, down }) =>
          down === undefined
            ? Effect.succeed({ status: ready, database, data_pack })
            : Effect.fail(new SourceUnavailable({ message: down }))))
  }))
