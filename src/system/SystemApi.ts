/** Liveness and readiness: SPEC section 4.1. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { SourceUnavailable } from "../../domain/Errors.ts"

export const Health = Schema.Struct({
  status: Schema.Literal("ok"),
  service: Schema.String,
  version: Schema.String
})

export const Readiness = Schema.Struct({
  status: Schema.Literal("ready"),
  database: Schema.Literals(["postgres", "embedded"]),
  data_pack: Schema.Literals(["not_started", "importing", "installed", "failed"]).annotate({
    description:
      "Whether the bundled data pack is served yet: `installed` once the market read model holds the imported data (an import that has finished but is not yet loaded still reads `importing`); market endpoints answer from what is loaded"
  })
})

export class SystemApi extends HttpApiGroup.make("system", { topLevel: true })
  .add(
    HttpApiEndpoint.get("health", "/health", { success: Health }).annotateMerge(OpenApi.annotations({
      summary: "Liveness probe",
      description: "Liveness: answers 200 while the process serves requests. Exempt from rate limiting."
    })),
    HttpApiEndpoint.get("ready", "/ready", { success: Readiness, error: SourceUnavailable }).annotateMerge(
      OpenApi.annotations({
        summary: "Readiness probe",
        description:
          "Readiness, answered from memory at once: 200 when the database answers a background `select 1` (one " +
          "waiting over a second, fifteen during the pack import, counts as down); 503 SOURCE_UNAVAILABLE otherwise, and " +
          "while the service is starting. Exempt from rate limiting."
      })
    )
  )
  .annotateMerge(OpenApi.annotations({
    title: "Service",
    description: "Liveness and readiness probes for load balancers and orchestrators; no key, no rate limit."
  }))
{}
