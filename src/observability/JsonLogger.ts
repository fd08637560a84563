/**
 * JSON-lines logs, cheap enough to write one line per request: each entry is
 * one `JSON.stringify` (an object message is spread into the line; the access
 * line, AccessLine.ts, is written from its fields without a record), and lines
 * are written in batches (LineSink.ts: every 20 ms, or once 64 KiB wait)
 * instead of one write each.
 * A line never carries the service's own tokens (`psx_s_…`, `psx_k_…`),
 * whatever field holds them: they are redacted (Redact.ts).
 */
import { Cause, Logger, References } from "effect"
import { LRUCache } from "lru-cache"
import { accessFields, AccessLine } from "./AccessLine.ts"
import { lineSink } from "./LineSink.ts"
import { redactTokens } from "./Redact.ts"

/** `date` as ISO 8601, formatted once per millisecond (a busy server logs many lines in one). */
let isoAt = Number.NaN
let iso = ""
const isoOf = (date: Date) => {
  const at = date.getTime()
  if (at !== isoAt) {
    isoAt = at
    iso = date.toISOString()
  }
  return iso
}

/** Each level as the line writes it. */
const LEVELS: Record<string, string> = Object.fromEntries(
  ["All", "Fatal", "Error", "Warn", "Info", "Debug", "Trace", "None"].map((
    level
  ) => [level, JSON.stringify(level.toLowerCase())])
)
const levelJson = (level: string) => LEVELS[level] ?? JSON.stringify(level.toLowerCase())

/**
 * Access-line paths as the line writes them (tokens redacted, as a JSON string), kept for the most recent
 * PATH_MEMO paths of up to PATH_MEMO_CHARS characters each (a busy server logs the same paths again and again;
 * about 2 MB at the most); a longer path is rendered each time.
 */
const PATH_MEMO = 4_096
const PATH_MEMO_CHARS = 256
const renderedPaths = new LRUCache<string, string>({ max: PATH_MEMO })
const renderPath = (path: string) => JSON.stringify(redactTokens(path))
const pathJson = (path: string) => {
  if (path.length > PATH_MEMO_CHARS) return renderPath(path)
  let json = renderedPaths.get(path)
  if (json === undefined) renderedPaths.set(path, json = renderPath(path))
  return json
}

/** The access line alone (no annotations, no cause), written straight from its fields. */
const accessOnly = (message: unknown, options: Logger.Options<unknown>): AccessLine | undefined => {
  const only = Array.isArray(message) ? (message.length === 1 ? message[0] : undefined) : message
  if (!(only instanceof AccessLine) || options.cause.reasons.length > 0) return undefined
  const annotations = options.fiber.getRef(References.CurrentLogAnnotations)
  for (const _ in annotations) return undefined
  return only
}

/** A log entry as its JSON line (without the newline). */
export const jsonLine = (options: Logger.Options<unknown>): string => {
  const { cause, date, fiber, logLevel, message } = options
  const access = accessOnly(message, options)
  if (access !== undefined) {
    return `{"time":"${isoOf(date)}","level":${levelJson(logLevel)},${accessFields(access, pathJson)}}`
  }
  const entry: Record<string, unknown> = { time: isoOf(date), level: logLevel.toLowerCase() }
  const parts = Array.isArray(message) ? message : [message]
  const texts: Array<string> = []
  for (const part of parts) {
    if (typeof part === "object" && part !== null && !(part instanceof Error)) Object.assign(entry, part)
    else texts.push(String(part))
  }
  if (texts.length > 0) entry["msg"] = texts.join(" ")
  const annotations = fiber.getRef(References.CurrentLogAnnotations)
  for (const key in annotations) entry[key] = annotations[key]
  if (cause.reasons.length > 0) entry["cause"] = Cause.pretty(cause)
  return redactTokens(JSON.stringify(entry))
}

export const jsonLinesLogger = Logger.make<unknown, void>((options) => lineSink.text(jsonLine(options)))
