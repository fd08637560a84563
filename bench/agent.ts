/**
 * `npm run bench:agent`: the seven agent tasks as fixed scripts of MCP calls with the official SDK client,
 * over streamable HTTP and over stdio, against the service as users run it on the bundled pack (a throwaway
 * embedded store). Prints, per task and transport, the calls,
 * the bytes of text content (what a host feeds its model) and of structuredContent, and whether the answers hold
 * the figures the task needs (expected values from the recordings: agent-expected.ts); then tools/list's size
 * with each grant. Targets: every task answered, each in <= 4 calls and <= 12 KB of text, tools/list <= 20 KB.
 *
 * The portfolio (task 4) is set up over HTTP first; stdio runs after the HTTP server stops, on the same store.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { closeOn, PORTFOLIO } from "./agent-expected.ts"
import { type Outcome, TASKS } from "./agent-tasks.ts"

const ROOT = join(import.meta.dirname, "..")
const PORT = Number(process.env["BENCH_PORT"] ?? 18_452)
const BASE = `http://127.0.0.1:${PORT}`
const MAX_CALLS = 4
const MAX_TEXT = 12_000
const MAX_LIST = 20_000

const dir = mkdtempSync(join(tmpdir(), "psx-bench-agent-"))
const store: Record<string, string> = { DATABASE_URL: "", PSX_DATA_DIR: join(dir, "pg") }
const env = { ...process.env, ...store, PSX_AUTO_IMPORT: "false", LOG_LEVEL: "Warn", PORT: String(PORT) }

const ingest = () =>
  execFileSync(process.execPath, ["src/main.ts", "ingest"], { cwd: ROOT, env, stdio: ["ignore", "ignore", "inherit"] })

const serve = async (): Promise<ChildProcess> => {
  const child = spawn(process.execPath, ["src/main.ts", "serve"], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "ignore", "inherit"]
  })
  for (let i = 0; i < 600; i++) {
    const ready = await fetch(`${BASE}/ready`).then((r) => r.ok, () => false)
    if (ready) return child
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  throw new Error("the service did not become ready")
}

const http = async (path: string, body: unknown, token?: string) => {
  const response = await fetch(`${BASE}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body)
  })
  const json: any = await response.json()
  if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(json)}`)
  return json
}

/** A session (both grants) owning the task-4 portfolio, a read-only key and a write-only key. */
const setUp = async () => {
  const { token } = await http("/v1/me/session", {})
  for (const p of PORTFOLIO) {
    await http("/v1/me/transactions", { kind: "buy", ...p, price: closeOn(p.symbol, p.trade_date) }, token)
  }
  const reader = (await http("/v1/me/keys", { grants: ["portfolio:read"], label: "bench reader" }, token)).key as string
  const writer =
    (await http("/v1/me/keys", { grants: ["portfolio:read", "portfolio:write"], label: "bench writer" }, token))
      .key as string
  const writeOnly = (await http("/v1/me/keys", { grants: ["portfolio:write"], label: "bench write only" }, token))
    .key as string
  return { token, reader, writer, writeOnly }
}

const overHttp = async (key?: string) => {
  const client = new Client({ name: "bench-agent", version: "1.0.0" })
  const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {}
  await client.connect(new StreamableHTTPClientTransport(new URL(`${BASE}/mcp`), { requestInit: { headers } }))
  return client
}

const overStdio = async (key?: string) => {
  const client = new Client({ name: "bench-agent", version: "1.0.0" })
  const childEnv = Object.fromEntries(
    Object.entries({ ...env, ...(key ? { PSX_API_KEY: key } : {}) }).filter(([, v]) => v !== undefined)
  ) as Record<string, string>
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ["src/main.ts", "mcp"],
      cwd: ROOT,
      env: childEnv,
      stderr: "ignore"
    })
  )
  return client
}

const listingBytes = async (client: Client) => Buffer.byteLength(JSON.stringify(await client.listTools()), "utf8")

const row = (cells: ReadonlyArray<string | number>) => `| ${cells.join(" | ")} |`

const report = (
  transport: string,
  outcomes: ReadonlyArray<readonly [string, Outcome]>,
  listings: Record<string, number>
) => {
  console.log(`\n### ${transport}\n`)
  console.log(row(["task", "calls", "text bytes", "structured bytes", "answered", "missing"]))
  console.log(row(["---", "---", "---", "---", "---", "---"]))
  for (const [name, o] of outcomes) {
    const text = o.calls.reduce((s, c) => s + c.textBytes, 0)
    const structured = o.calls.reduce((s, c) => s + c.structuredBytes, 0)
    const within = o.calls.length <= MAX_CALLS && text <= MAX_TEXT
    console.log(
      row([
        name,
        o.calls.length,
        text,
        structured,
        `${o.answered ? "yes" : "no"}${within ? "" : " (over target)"}`,
        o.missing.join("; ").slice(0, 160) || "-"
      ])
    )
  }
  console.log(
    `\ntools/list bytes: ${
      Object.entries(listings).map(([k, v]) => `${k} ${v}${v > MAX_LIST ? " (over 20 KB)" : ""}`).join(", ")
    }`
  )
}

type Connect = (key?: string) => Promise<Client>

/**
 * The callers' clients. Over stdio at most one child runs at a time (the embedded store is one process's), so
 * asking for another caller closes the open one.
 */
const clientsOf = (connect: Connect, keys: Record<string, string | undefined>, single: boolean) => {
  const open = new Map<string, Client>()
  return {
    get: async (who: string) => {
      const kept = open.get(who)
      if (kept !== undefined) return kept
      if (single) await closeAll(open)
      const client = await connect(keys[who])
      open.set(who, client)
      return client
    },
    close: () => closeAll(open)
  }
}

const closeAll = async (open: Map<string, Client>) => {
  for (const client of open.values()) await client.close()
  open.clear()
}

const runAll = async (connect: Connect, keys: Awaited<ReturnType<typeof setUp>>, single: boolean) => {
  const callers = {
    anonymous: undefined,
    reader: keys.reader,
    writer: keys.writer,
    writeOnly: keys.writeOnly,
    token: keys.token
  }
  const clients = { ...clientsOf(connect, callers, single), afterFirstRun: single }
  const outcomes: Array<readonly [string, Outcome]> = []
  for (const task of TASKS) outcomes.push([task.name, await task.run(clients)])
  const listings: Record<string, number> = {}
  for (
    const [label, who] of [["no key", "anonymous"], ["read", "reader"], ["write", "writeOnly"], [
      "read+write",
      "writer"
    ], ["session (all)", "token"]]
  ) {
    listings[label!] = await listingBytes(await clients.get(who!))
  }
  await clients.close()
  if (process.env["BENCH_VERBOSE"]) {
    for (const [name, o] of outcomes) {
      console.error(
        name,
        o.calls.map((c) => `${c.what}: ${c.text.slice(0, 1500)}`)
      )
    }
  }
  return { outcomes, listings }
}

const main = async () => {
  console.log("bench:agent on a throwaway embedded store; importing the pack…")
  ingest()
  const server = await serve()
  let keys: Awaited<ReturnType<typeof setUp>>
  try {
    keys = await setUp()
    const overHttpRun = await runAll(overHttp, keys, false)
    report("streamable HTTP", overHttpRun.outcomes, overHttpRun.listings)
  } finally {
    server.kill("SIGTERM")
    await new Promise((resolve) => server.once("exit", resolve))
  }
  const stdioRun = await runAll(overStdio, keys, true)
  report("stdio", stdioRun.outcomes, stdioRun.listings)
}

main().then(
  () => rmSync(dir, { recursive: true, force: true }),
  (error) => {
    rmSync(dir, { recursive: true, force: true })
    console.error(error)
    process.exitCode = 1
  }
)
