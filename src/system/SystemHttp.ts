/** Handlers of /health and /ready. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { SourceUnavailable } from "../../domain/Errors.ts"
import { AnswerCache, type AnswerPolicy } from "../http/AnswerCache.ts"
import { Api } from "../http/Api.ts"
import { Readiness } from "./Readiness.ts"
import type { Health } from "./SystemApi.ts"

const ready = "ready" as const

/** The liveness record: the one answer of GET /health (the request gate gives its bytes while the routes are built). */
export const liveness: typeof Health.Type = { status: "ok", service: "psx-data-service", version: "1.0.0" }

/** Liveness never changes: its bytes are made once and cached for the life of the process. */
const forever = (state: object): AnswerPolicy => ({
  snapshot: () => state,
  share: () => "bounded",
  validUntil: () => Infinity,
  cachesFailure: () => false
})

export const SystemHttp = HttpApiBuilder.group(Api, "system", (handlers) =>
  Effect.gen(function*() {
    const readiness = yield* Readiness
    const cached = (yield* AnswerCache).handlersOf(Api, "system")
    return handlers
      .handle("health", cached("health", forever({}), () => Effect.succeed(liveness)))
      // From memory (Readiness.ts): never waits on the store.
      .handle("ready", () =>
        Effect.flatMap(readiness.report, ({ data_pack, database, down }) =>
          down === undefined
            ? Effect.succeed({ status: ready, database, data_pack })
            : Effect.fail(new SourceUnavailable({ message: down }))))
  }))
