import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Each file opens its own store; two at a time keeps PGlite's memory in check.
    maxWorkers: 2,
    reporters: ["default"]
  }
})
