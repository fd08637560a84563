/**
 * What the browser tests share: the loopback server's address, a browser
 * that records every console error, script error, CSP refusal, request to
 * another origin and token seen in an address, axe-core's verdict on a page,
 * and the page's sideways overflow.
 */
import { Effect } from "effect"
import { HttpServer } from "effect/http"
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import type { Page } from "playwright-core"
import { CHROMIUM, hasChromium, launch } from "./Browser.ts"

export const mode = hasChromium() ? "run" : process.env["CI"] === "true" ? "fail" : "skip"
if (mode === "skip") console.warn(`website e2e skipped: no Chromium at ${CHROMIUM} (bash scripts/install-chromium.sh)`)

/** The instant the service's clock and the browser's start at: a Wednesday session in Karachi, after the recorded payouts of Aug 2026 were announced and before their book closures. */
export const NOW = "2026-08-12T07:00:00.000Z"

export const baseUrl = Effect.map(HttpServer.HttpServer, (server) => {
  const address = server.address
  if (address._tag === "UnixPathAddress") throw new Error("the test server is not on TCP")
  return `http://127.0.0.1:${address.port}`
})

export interface Watcher {
  readonly problems: Array<string>
  readonly setToken: (t: string) => void
  /** HTTP statuses of failed loads the next steps expect (the 404 page's own document, a refused form); [] again after. */
  readonly expectStatus: (statuses: ReadonlyArray<number>) => void
}

/** Watches a page for console errors, script errors, CSP refusals, requests to other origins and the token in any URL. */
export const watch = (page: Page, base: string): Watcher => {
  const problems: Array<string> = []
  let token = ""
  let allowed: ReadonlyArray<number> = []
  page.on("request", (r) => {
    if (!r.url().startsWith(`${base}/`) && !r.url().startsWith("blob:")) {
      problems.push(`request to another origin: ${r.url()}`)
    }
    if (token !== "" && r.url().includes(token)) problems.push(`token in a URL: ${r.url()}`)
  })
  page.on("console", (m) => {
    if (m.type() !== "error") return
    const status = /status of (\d{3})/.exec(m.text())?.[1]
    if (status !== undefined && allowed.includes(Number(status))) return
    problems.push(`console error on ${page.url()}: ${m.text()}`)
  })
  page.on("pageerror", (e) => problems.push(`script error on ${page.url()}: ${e.message}`))
  return { problems, setToken: (t) => (token = t), expectStatus: (statuses) => (allowed = statuses) }
}

export interface Session {
  readonly page: Page
  readonly watcher: Watcher
}

/** Runs `steps` in a fresh browser (clock at NOW) watching the page; fails on any problem seen. */
export const inBrowser = async (
  base: string,
  steps: (s: Session) => Promise<void>,
  size: { readonly width: number; readonly height: number } = { width: 1440, height: 900 }
) => {
  const browser = await launch(size)
  await browser.context.clock.setFixedTime(new Date(NOW))
  const watcher = watch(browser.page, base)
  try {
    await steps({ page: browser.page, watcher })
    if (watcher.problems.length) throw new Error(watcher.problems.join("\n"))
  } finally {
    await browser.close()
  }
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8")

/** axe-core's violations on the page as it is, every impact, as "rule (impact): targets". */
export const axeViolations = async (page: Page) => {
  await page.evaluate(axeSource)
  return page.evaluate(async () => {
    const result = await (globalThis as any).axe.run(document)
    return (result.violations as Array<any>).map((v) =>
      `${v.id} (${v.impact}): ${v.nodes.slice(0, 5).map((n: any) => n.target.join(" ")).join(", ")}`
    )
  })
}

/** How far the page reaches past the viewport's right edge, in CSS pixels. */
export const overflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)

/** Signs the browser in with a token (as the sign-in page would, setting its cookie) without the UI. */
export const holdToken = async (page: Page, base: string, token: string) => {
  const post = () => page.context().request.post(`${base}/web/session`, { data: { token }, headers: { origin: base } })
  // A kept-alive socket the server closed at that moment fails in transit: the sign-in is sent again, once.
  const r = await post().catch(post)
  if (r.status() !== 200) throw new Error(`sign-in refused: ${r.status()} ${await r.text()}`)
}

/** Waits until nothing shown is still loading: no visible skeleton, no busy region, no request in flight. */
export const doneLoading = async (page: Page) => {
  const busy = () => [
    ...Array.from(document.querySelectorAll("[aria-busy=true]")).filter((e) => (e as HTMLElement).offsetParent !== null)
      .map((e) => `busy #${e.id}`),
    ...Array.from(document.querySelectorAll(".skeleton")).filter((e) => (e as HTMLElement).offsetParent !== null).map((
      e
    ) => `skeleton in #${e.parentElement?.id}`)
  ]
  try {
    await page.waitForFunction(
      () => {
        const left = [
          ...Array.from(document.querySelectorAll("[aria-busy=true], .skeleton")).filter((e) =>
            (e as HTMLElement).offsetParent !== null
          )
        ]
        return left.length === 0
      },
      undefined,
      { timeout: 60_000 }
    )
  } catch {
    throw new Error(`${page.url()} is still loading: ${(await page.evaluate(busy)).join(", ")}`)
  }
  await page.waitForLoadState("networkidle")
}
