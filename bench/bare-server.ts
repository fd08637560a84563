/**
 * The baseline: a bare node:http server answering every request with the
 * bytes (status, content type, body) given on the command line, as the
 * service would. Run as its own process by bench/run.ts; says `ready` on stdout once it listens.
 */
import { createServer } from "node:http"
import { readFileSync } from "node:fs"

const [port, file] = process.argv.slice(2)
const { status, contentType, body } = JSON.parse(readFileSync(file!, "utf8")) as {
  status: number
  contentType: string
  body: string
}
const bytes = Buffer.from(body)
createServer((_req, res) => {
  res.writeHead(status, { "content-type": contentType, "content-length": bytes.length })
  res.end(bytes)
}).listen(Number(port), "127.0.0.1", () => process.stdout.write("ready\n"))
