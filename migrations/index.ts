/**
 * Every migration, keyed `<id>_<name>` and imported statically so the same
 * list runs under Node, Deno and vitest. Add a file, then a line here.
 */
import m0001 from "./0001_service.ts"

export const migrations = {
  "0001_service": m0001
}
