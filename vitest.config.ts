import { defineConfig } from "vitest/config"

/**
 * The slow suites: fuzzing, faults (store cuts, SIGKILL), several service processes, the stdio MCP children with
 * their own import, upstream faults, whole crawls of the fake portal, the rate limits run out request by request,
 * the point-in-time sweep (30 instants' snapshots), and the browser. `npm test` (`vitest run --mode quick`) leaves them out;
 * `npm run test:all` (plain `vitest run`, what CI runs on both stores) and `npx vitest run <file>` run them.
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
  "test/e2e/**"
]

export default defineConfig(({ mode }) => ({
  test: {
    include: ["test/**/*.test.ts"],
    // The pack's prebuilt store, made once (test/support/GlobalSetup.ts) and copied by each file that needs it.
    globalSetup: ["test/support/GlobalSetup.ts"],
    exclude: mode === "quick" ? ["**/node_modules/**", ...SLOW_SUITES] : ["**/node_modules/**"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Each file opens its own store; two at a time keeps PGlite's memory in check.
    maxWorkers: 2,
    reporters: ["default"]
  }
}))
