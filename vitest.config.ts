import { defineConfig } from "vitest/config"

/**
 * Four projects:
 * - `unit`: pure tests under test/unit/ (no store, no global setup): `npm run test:unit`, seconds.
 * - `service`: every route over the bundled pack; the global setup builds the pack's store once.
 * - `slow`: fuzzing, faults, several processes or store instances (start-up, restarts, contention, the request
 *   log of a process), stdio MCP children, the whole pack's import, the point-in-time sweep and flood, the
 *   sweeps over every listed symbol.
 * - `browser`: the website in Chromium (test/e2e/).
 * `npm test` runs unit and service; `npm run test:all` runs all four. CI runs all four on the embedded store and
 * all but `browser` on PostgreSQL: the pages read the same routes, which the other projects test on both stores.
 */
export const SLOW_SUITES = [
  "test/fuzz.test.ts",
  "test/faults.test.ts",
  "test/instances.test.ts",
  "test/mcp.test.ts",
  "test/mcp-sessions.test.ts",
  "test/security.test.ts",
  "test/upstream-faults.test.ts",
  "test/crawler.test.ts",
  "test/limits.test.ts",
  "test/live-writers.test.ts",
  "test/mcp-portfolio.test.ts",
  "test/market-clock-sweep.test.ts",
  "test/memory-settle.test.ts",
  "test/every-symbol.test.ts",
  "test/ledger-contention.test.ts",
  "test/ledger-signing.test.ts",
  "test/pack.test.ts",
  "test/start.test.ts",
  "test/access-log.test.ts"
]

const BROWSER = ["test/e2e/**/*.test.ts"]

const UNIT = ["test/unit/**/*.test.ts"]

const storeBacked = {
  // The pack's prebuilt store, made once (test/support/GlobalSetup.ts) and copied by each file that needs it.
  globalSetup: ["test/support/GlobalSetup.ts"],
  testTimeout: 120_000,
  hookTimeout: 120_000
}

export default defineConfig({
  test: {
    // Each worker holds at most two stores and read models (test/support/TestApp.ts); three workers keep a
    // 2-core machine busy while files wait on their servers, and memory within a few GB.
    maxWorkers: 3,
    reporters: ["default"],
    projects: [
      { test: { name: "unit", include: UNIT, isolate: false } },
      {
        test: {
          name: "service",
          include: ["test/**/*.test.ts"],
          exclude: ["**/node_modules/**", ...UNIT, ...SLOW_SUITES, ...BROWSER],
          // A worker runs its files one after another in one module graph, so the files that ask for the same
          // shared app (test/support/TestApp.ts: SharedTestApp) build it once per worker, not once each.
          isolate: false,
          ...storeBacked
        }
      },
      { test: { name: "slow", include: SLOW_SUITES, exclude: ["**/node_modules/**"], ...storeBacked } },
      { test: { name: "browser", include: BROWSER, exclude: ["**/node_modules/**"], ...storeBacked } }
    ]
  }
})
