/**
 * The access line of a request the fast path answered (http/FastPath.ts), written as bytes straight into the
 * log's chunk (LineSink.ts) when the JSON logger is the only logger in force: the line `jsonLine` gives the
 * same AccessLine at Info (JsonLogger.ts), byte for byte, without building its text or a log entry. What does
 * not change from one request to the next is encoded once: the line's fixed parts, a URL's method and path
 * (`accessTarget`, kept with the fast path's match of that URL), and the time, once per millisecond.
 *
 * Building the line as text cost about a fifteenth of a kept answer's CPU (`npm run bench`, issue 36): a
 * dozen strings joined, then flattened and encoded by a call into Node for each line.
 */
import { jsonString, plainAscii } from "./AccessLine.ts"
import { pathJson } from "./JsonLogger.ts"
import { lineSink } from "./LineSink.ts"

const bytes = (text: string) => new Uint8Array(Buffer.from(text, "utf8"))

const TIME = bytes(`{"time":"`)
const REQUEST = bytes(`","level":"info","msg":"request","requestId":`)
const STATUS = bytes(`,"status":`)
const MS = bytes(`,"ms":`)
const QUOTE = 34
const CLOSE = 125
const ZERO = 48
/** The fixed parts, the time and the figures, at the most. */
const FIXED_BYTES = TIME.length + 24 + REQUEST.length + STATUS.length + MS.length + 2 * 24 + 2

/** The method and path of a URL as its access line writes them: `,"method":…,"path":…` (tokens redacted). */
export const accessTarget = (method: string, path: string): Uint8Array =>
  bytes(`,"method":${jsonString(method)},"path":${pathJson(path)}`)

let isoAt = Number.NaN
let iso = new Uint8Array(0)
const isoBytes = (now: number) => {
  if (now !== isoAt) {
    isoAt = now
    iso = bytes(new Date(now).toISOString())
  }
  return iso
}

/** Writes a whole number as JSON does (a small non-negative integer digit by digit, anything else as text). */
const putNumber = (chunk: Buffer, at: number, n: number): number => {
  if (!Number.isInteger(n) || n < 0 || n > 1e9) return at + chunk.write(JSON.stringify(n), at, "latin1")
  if (n < 10) {
    chunk[at] = ZERO + n
    return at + 1
  }
  let end = at
  for (let rest = n; rest > 0; rest = Math.floor(rest / 10)) end++
  for (let i = end - 1, rest = n; i >= at; i--, rest = Math.floor(rest / 10)) chunk[i] = ZERO + (rest % 10)
  return end
}

/** Writes a request id as a JSON string (an id of the server's own, base 36 and `-`, needs no escape). */
const putId = (chunk: Buffer, at: number, id: string): number => {
  if (!plainAscii(id)) return at + chunk.write(JSON.stringify(id), at, "utf8")
  chunk[at] = QUOTE
  const end = at + 1 + chunk.write(id, at + 1, "latin1")
  chunk[end] = QUOTE
  return end + 1
}

const put = (chunk: Buffer, at: number, part: Uint8Array) => {
  chunk.set(part, at)
  return at + part.length
}

/** One access line at Info, at `now` (ms since the epoch), for a URL's `target` (see `accessTarget`). */
export const writeAccessLine = (target: Uint8Array, requestId: string, status: number, ms: number, now: number): void => {
  const sink = lineSink
  if (!sink.reserve(FIXED_BYTES + target.length + requestId.length * 6 + 2)) {
    // Longer than a chunk (a path of tens of kilobytes): written as text, on its own.
    const text = `{"time":"${new Date(now).toISOString()}","level":"info","msg":"request","requestId":${jsonString(requestId)}` +
      `${Buffer.from(target).toString("utf8")},"status":${status},"ms":${ms}}`
    return sink.text(text)
  }
  const chunk = sink.chunk
  let at = put(chunk, sink.used, TIME)
  at = put(chunk, at, isoBytes(now))
  at = put(chunk, at, REQUEST)
  at = putId(chunk, at, requestId)
  at = put(chunk, at, target)
  at = put(chunk, at, STATUS)
  at = putNumber(chunk, at, status)
  at = put(chunk, at, MS)
  at = putNumber(chunk, at, ms)
  chunk[at] = CLOSE
  sink.commit(at + 1)
}
