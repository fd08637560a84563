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

/** The fields after `time` and `level`, as `JSON.stringify` of the record writes them (`{` and `}` left off). */
export const accessFields = (line: AccessLine, safe: (text: string) => string): string =>
  `"msg":"request","requestId":${JSON.stringify(line.requestId)},"method":${JSON.stringify(line.method)},` +
  `"path":${JSON.stringify(safe(line.path))},"status":${line.status},"ms":${line.ms}`
