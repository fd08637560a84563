await import("./Start.ts")
