/** The entry point: the process's memory settings first (src/system/MemorySettings.ts), then the command line. */
import { applyMemorySettings } from "./system/MemorySettings.ts"

applyMemorySettings()
await import("./Start.ts")
