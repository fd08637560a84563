/**
 * The listening server: the request gate (RequestGate.ts) on the configured host and port, and the HTTP settings
 * every app built on it shares. It imports no feature: the routes and the services they need are composed
 * in src/Layers.ts (`Routes`, `AppLive`), which attaches them to this server.
 */
import { ByteSize, Effect, Layer } from "effect"
import { HttpIncomingMessage } from "effect/http"
import { AppConfig } from "../config/AppConfig.ts"
import { liveness } from "../system/SystemHttp.ts"
import { successAnswer } from "./AnswerCache.ts"
import { Api } from "./Api.ts"
import * as RequestGate from "./RequestGate.ts"

/** Request bodies are small JSON documents: anything over 1 MiB is refused (400 INVALID_REQUEST). */
const MAX_BODY_MIB = 1
export const BodyLimit = Layer.succeed(HttpIncomingMessage.MaxBodySize, ByteSize.mebibytes(MAX_BODY_MIB))

/** How long any request may wait for its answer before a 503 record (RequestGate.ts). */
export const REQUEST_DEADLINE_MS = 30_000

/**
 * The listening server on the configured host and port. Build it first: it answers every request
 * (503 "starting") until `AppLive` (src/Layers.ts) attaches the routes.
 */
export const RequestGateLive = Layer.unwrap(
  Effect.map(AppConfig, (config) =>
    RequestGate.layer({
      port: config.port,
      host: config.host,
      deadlineMs: REQUEST_DEADLINE_MS,
      maxBodyBytes: MAX_BODY_MIB * 1024 * 1024,
      // Liveness while the routes are built: GET /health's own answer (SystemHttp), encoded by its endpoint.
      whileUnattached: new Map([["/health", successAnswer(Api, "system", "health", liveness)]])
    }))
)
