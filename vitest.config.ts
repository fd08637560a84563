import { defineConfig } from "vitest/config"

/**
 * Three projects:
 * - `unit`: pure tests under test/unit/ (no store, no global setup): `npm run test:unit`, seconds.
 * - `service`: every route over the bundled pack; the global setup builds the pack's store once.
 * - `slow`: fuzzing, faults, several processes, stdio MCP children, the point-in-time sweep and flood, the sweeps
 *   over every listed symbol, the browser.
 * `npm test` runs unit and service; `npm run test:all` (what CI runs on both stores) runs all three.
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
  "test/e2e/**/*.test.ts"
]

const UNIT = ["test/unit/**/*.test.ts"]

const storeBacked = {
  // The pack's prebuilt store, made once (test/support/GlobalSetup.ts) and copied by each file that needs it.
  globalSetup: ["test/support/GlobalSetup.ts"],
  testTimeout: 120_000,
  hookTimeout: 120_000
}

export default defineConfig({
  test: {
    // Each file opens its own store; two at a time keeps PGlite's memory in check.
    maxWorkers: 2,
    reporters: ["default"],
    projects: [
      { test: { name: "unit", include: UNIT } },
      {
        test: {
          name: "service",
          include: ["test/**/*.test.ts"],
          exclude: ["**/node_modules/**", ...UNIT, ...SLOW_SUITES],
          ...storeBacked
        }
      },
      { test: { name: "slow", include: SLOW_SUITES, exclude: ["**/node_modules/**"], ...storeBacked } }
    ]
  }
})
