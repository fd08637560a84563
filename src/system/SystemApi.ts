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
    description: "Whether this process has the bundled data pack in the store yet; market endpoints answer from what is stored"
  })
})

export class SystemApi extends HttpApiGroup.make("system", { topLevel: true })
  .add(
    HttpApiEndpoint.get("health", "/health", { success: Health }).annotateMerge(OpenApi.annotations({
      summary: "Liveness probe",
      description: "Liveness: answers 200 while the process serves requests. Exempt from rate limiting."
    })),
    HttpApiEndpoint.get("ready", "/ready", { success: Readiness, error: SourceUnavailable }).annotateMerge(OpenApi.annotations({
      summary: "Readiness probe",
      description: "Readiness: 200 when the database answers `select 1` within a second and the configuration is valid; " +
        "503 SOURCE_UNAVAILABLE otherwise. Exempt from rate limiting."
    }))
  )
  .annotateMerge(OpenApi.annotations({
    title: "Service",
    description: "Liveness and readiness probes for load balancers and orchestrators; no key, no rate limit."
  }))
{}
