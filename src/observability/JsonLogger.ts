/**
 * JSON-lines logs, cheap enough to write one line per request: each entry is
 * one `JSON.stringify` (an object message is spread into the line; the access
 * line, AccessLine.ts, is written from its fields without a record), and lines
 * are written in batches (every 20 ms, or once 64 KiB wait) instead of one
 * write each.
 * A line never carries the service's own tokens (`psx_s_…`, `psx_k_…`),
 * whatever field holds them: they are redacted (Redact.ts).
 */
import { Cause, Logger, References } from "effect"
import { RecentMap } from "../cache/RecentMap.ts"
import { AccessLine, accessFields } from "./AccessLine.ts"
import { redactTokens } from "./Redact.ts"

/**
 * Lines waiting are kept as bytes in one chunk, written once it is nearly full (64 KiB) or after 20 ms. A line
 * is encoded into the chunk as it is logged, so its text dies young: lines kept as strings for 20 ms outlived
 * the young generation's collections under load and filled the old one (a full collection every few seconds).
 * A chunk written is used again once its write is done (two are kept spare): a new chunk for each write was
 * mapped and unmapped by malloc several times a second under load (scripts/serve.sh has blocks of 32 KiB and
 * more come from mmap), and each unmapping is a TLB flush.
 */
const CHUNK_BYTES = 64 * 1024
const SPARE_CHUNKS = 2
const spare: Array<Buffer> = []
const freshChunk = () => spare.pop() ?? Buffer.allocUnsafeSlow(CHUNK_BYTES)
let chunk = freshChunk()
let used = 0
let scheduled = false
const write = (line: string) => {
  // UTF-8 takes at most three bytes for each UTF-16 code unit.
  const most = line.length * 3 + 1
  if (used + most > CHUNK_BYTES) flush()
  if (most > CHUNK_BYTES) return void process.stdout.write(line + "\n")
  used += chunk.write(line, used)
  chunk[used++] = 10
  if (!scheduled) {
    scheduled = true
    setTimeout(flush, 20).unref?.()
  }
}
const flush = () => {
  scheduled = false
  if (used === 0) return
  const written = chunk
  const lines = written.subarray(0, used)
  chunk = freshChunk()
  used = 0
  process.stdout.write(lines, () => {
    if (spare.length < SPARE_CHUNKS) spare.push(written)
  })
}
process.once("exit", flush)

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
  ["All", "Fatal", "Error", "Warn", "Info", "Debug", "Trace", "None"].map((level) => [level, JSON.stringify(level.toLowerCase())])
)
const levelJson = (level: string) => LEVELS[level] ?? JSON.stringify(level.toLowerCase())

/**
 * Access-line paths as the line writes them (tokens redacted, as a JSON string), kept for the most recent
 * PATH_MEMO paths of up to PATH_MEMO_CHARS characters each (a busy server logs the same paths again and again;
 * about 2 MB at the most); a longer path is rendered each time.
 */
const PATH_MEMO = 4_096
const PATH_MEMO_CHARS = 256
const renderedPaths = new RecentMap<string, string>(PATH_MEMO)
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

export const jsonLinesLogger = Logger.make<unknown, void>((options) => write(jsonLine(options)))
