/**
 * The access log's entry: one per request, written by the guard and by the
 * fast path with the same fields. A class so the JSON logger can tell it
 * from any other entry and write it without building a record first
 * (JsonLogger.ts); to every other logger it is a plain record of its fields.
 *
 * `path` is the path as it may be logged: the caller has replaced anything
 * shaped like a credential (Redact.ts `redactSecrets`).
 */
export class AccessLine {
  readonly msg = "request"
  readonly requestId: string
  readonly method: string
  readonly path: string
  readonly status: number
  readonly ms: number
  constructor(requestId: string, method: string, path: string, status: number, ms: number) {
    this.requestId = requestId
    this.method = method
    this.path = path
    this.status = status
    this.ms = ms
  }
}

/**
 * `text` as a JSON string. The request id (base 36 and `-`) and the method (an HTTP token) need no escape:
 * they are quoted without `JSON.stringify` once a scan finds nothing to escape.
 */
export const jsonString = (text: string): string => plainAscii(text) ? `"${text}"` : JSON.stringify(text)

/** Printable ASCII with no `"` or `\\`: a JSON string of it is the text in quotes. */
export const plainAscii = (text: string): boolean => {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code < 0x20 || code === 0x22 || code === 0x5c || code > 0x7e) return false
  }
  return true
}

/**
 * The fields after `time` and `level`, as `JSON.stringify` of the record writes them (`{` and `}` left off);
 * `pathJson` gives the path as the line writes it (redacted, as a JSON string).
 */
export const accessFields = (line: AccessLine, pathJson: (path: string) => string): string =>
  `"msg":"request","requestId":${jsonString(line.requestId)},"method":${jsonString(line.method)},` +
  `"path":${pathJson(line.path)},"status":${line.status},"ms":${line.ms}`
