/**
 * Every log line a service under test writes, as its loggers see it (before the JSON logger's own
 * redaction): level, message, cause and annotations, each line as JSON text.
 */
import { Cause, Layer, Logger, type LogLevel, References } from "effect"

export const capturedLogs = (minimum: LogLevel.LogLevel) => {
  const lines: Array<string> = []
  const capture = Logger.make<unknown, void>(({ cause, fiber, logLevel, message }) => {
    lines.push(JSON.stringify({
      level: logLevel,
      message,
      cause: cause.reasons.length > 0 ? Cause.pretty(cause) : undefined,
      annotations: fiber.getRef(References.CurrentLogAnnotations)
    }))
  })
  return { lines, layer: Layer.mergeAll(Logger.layer([capture]), Layer.succeed(References.MinimumLogLevel, minimum)) }
}
