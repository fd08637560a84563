/**
 * The entry point: the process's memory settings first (src/system/MemorySettings.ts), then V8's on-disk cache of
 * compiled modules (Node's compile cache, in the system's temporary directory: a later start skips compiling the
 * service's code and its libraries again), then the command line.
 */
import * as NodeModule from "node:module"
import { applyMemorySettings } from "./system/MemorySettings.ts"

applyMemorySettings()
NodeModule.enableCompileCache?.()
await import("./Start.ts")
