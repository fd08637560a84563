/**
 * Headless Chromium for the website's browser tests and screenshots:
 * Debian's `chromium` package (scripts/install-chromium.sh) driven by
 * playwright-core, with a fresh profile per run and nothing that phones home.
 */
import { existsSync } from "node:fs"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type BrowserContext, chromium, type Page } from "playwright-core"

export const CHROMIUM = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium"

export const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync"
]

export const hasChromium = () => existsSync(CHROMIUM)

export interface Browser {
  readonly context: BrowserContext
  readonly page: Page
  readonly close: () => Promise<void>
}

/** A browser with a fresh user-data-dir, one page, removed again by `close`. */
export const launch = async (options: { readonly width?: number; readonly height?: number } = {}): Promise<Browser> => {
  const profile = await mkdtemp(join(tmpdir(), "psx-chromium-"))
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    viewport: { width: options.width ?? 1280, height: options.height ?? 900 },
    locale: "en-GB",
    timezoneId: "Asia/Karachi",
    permissions: ["clipboard-read", "clipboard-write"]
  })
  const page = context.pages()[0] ?? (await context.newPage())
  return {
    context,
    page,
    close: async () => {
      await context.close()
      await rm(profile, { recursive: true, force: true })
    }
  }
}
