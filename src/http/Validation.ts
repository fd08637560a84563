/**
 * Request validation failures as the spec's error record: a path, query,
 * header or body that does not decode answers 400 INVALID_REQUEST with a
 * message naming the offending field, never an empty body.
 */
import { Effect, SchemaIssue } from "effect"
import { type HttpApiError, HttpApiMiddleware } from "effect/http-api"
import { Internal, InvalidRequest, RateLimited } from "../../domain/Errors.ts"
import { redactSecrets } from "../observability/Redact.ts"

export class Validation extends HttpApiMiddleware.Service<Validation>()("psx/http/Validation", {
  error: [InvalidRequest, RateLimited, Internal]
}) {}

const formatIssues = SchemaIssue.makeFormatterStandardSchemaV1()

const slotName: Record<HttpApiError.HttpApiSchemaError["kind"], string> = {
  Params: "path",
  Query: "query",
  Headers: "header",
  Payload: "body",
  Body: "response",
  ResponseHeaders: "response header"
}

/**
 * "query parameter `limit`: Expected a finite number, got \"abc\"" and the like, joined. A path
 * parameter's value is echoed with anything shaped like a credential redacted (a key's secret sent
 * where its id belongs).
 */
export const describeSchemaError = (error: HttpApiError.HttpApiSchemaError): string => {
  const slot = slotName[error.kind]
  const issues = formatIssues(error.cause.issue).issues
  if (issues.length === 0) return `invalid ${slot}`
  const message = issues
    .slice(0, 5)
    .map((issue) => {
      const path = (issue.path ?? []).map((p) => String(typeof p === "object" ? p.key : p))
      return path.length > 0 ? `${slot} field \`${path.join(".")}\`: ${issue.message}` : `${slot}: ${issue.message}`
    })
    .join("; ")
  return error.kind === "Params" ? redactSecrets(message) : message
}

export const ValidationLive = HttpApiMiddleware.layerSchemaErrorTransform(
  Validation,
  (error) =>
    error.kind === "Body" || error.kind === "ResponseHeaders"
      ? Effect.logError("response encoding failed", describeSchemaError(error)).pipe(
        Effect.andThen(Effect.fail(new Internal({ message: "the response could not be encoded" })))
      )
      : Effect.fail(new InvalidRequest({ message: describeSchemaError(error) }))
)
