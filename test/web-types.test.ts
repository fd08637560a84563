/**
 * The website's scripts are type-checked against the API: the committed
 * response types (src/web/assets/api-types.d.ts) are what the OpenAPI
 * document generates now, and `tsc -p src/web/assets` (checkJs, strict) finds
 * no error in the scripts.
 */
import { assert, describe, it } from "@effect/vitest"
import { execFile } from "node:child_process"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { WEB_TYPES_FILE, webTypes } from "../scripts/web-types.ts"

const root = fileURLToPath(new URL("..", import.meta.url))

describe("website types", () => {
  it("the committed api-types.d.ts is what the Api generates (run `npm run web:types` after changing the Api)", async () => {
    assert.strictEqual(readFileSync(WEB_TYPES_FILE, "utf8"), await webTypes())
  })

  it("the browser scripts type-check against it", { timeout: 180_000 }, async () => {
    const tsc = `${root}node_modules/typescript/bin/tsc`
    const run = await promisify(execFile)(process.execPath, [tsc, "-p", "src/web/assets"], { cwd: root }).then(
      (r) => ({ code: 0, out: r.stdout }),
      (e: { code?: number; stdout?: string }) => ({ code: e.code ?? 1, out: e.stdout ?? "" })
    )
    assert.strictEqual(run.out.trim(), "", "no type error")
    assert.strictEqual(run.code, 0)
  })
})
