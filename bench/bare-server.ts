/**
 * The baseline: a bare node:http server answering each path with the bytes (status, content type, body) the
 * service gave for it, read from the file named on the command line (`{ [path]: {status, contentType, body,
 * etag} }`, written by bench/run.ts just before the run); a request whose If-None-Match is the ETag gets 304.
 * A path not in the file gets the first answer. Run as its own process by bench/run.ts; says `ready` on stdout
 * once it listens.
 */
import { readFileSync } from "node:fs"
import { createServer } from "node:http"

interface Recorded {
  readonly status: number
  readonly contentType: string
  readonly body: string
  readonly etag?: string | null
}

const [port, file] = process.argv.slice(2)
const recorded = JSON.parse(readFileSync(file!, "utf8")) as Record<string, Recorded>
const answers = new Map(Object.entries(recorded).map(([path, r]) => [path, { ...r, bytes: Buffer.from(r.body) }]))
const first = answers.values().next().value!
createServer((req, res) => {
  const answer = answers.get(req.url!) ?? first
  if (answer.etag && req.headers["if-none-match"] === answer.etag) {
    res.writeHead(304, { etag: answer.etag })
    res.end()
    return
  }
  res.writeHead(answer.status, { "content-type": answer.contentType, "content-length": answer.bytes.length })
  res.end(answer.bytes)
}).listen(Number(port), "127.0.0.1", () => process.stdout.write("ready\n"))
