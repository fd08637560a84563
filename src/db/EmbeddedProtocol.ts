/**
 * The messages between the service and the embedded store's thread
 * (EmbeddedWorker.ts): what the thread is started with, the requests the
 * service sends it, and its replies. Decoded on arrival on both sides.
 */
import { Schema } from "effect"

/** The thread's `workerData`: where PGlite keeps its files and where it listens. */
export const Setup = Schema.Struct({ dataDir: Schema.String, socketPath: Schema.String })
export type Setup = typeof Setup.Type

/** stop: refuse connections; start: accept them again; close: stop, close PGlite (flushing it) and end the thread. */
export const Request = Schema.Struct({ id: Schema.Int, op: Schema.Literals(["stop", "start", "close"]) })
export type Request = typeof Request.Type

export const Reply = Schema.Union([
  /** PGlite is open and the socket accepts connections. */
  Schema.TaggedStruct("Ready", {}),
  /** Opening failed; the thread ends. */
  Schema.TaggedStruct("Failed", { message: Schema.String }),
  Schema.TaggedStruct("Done", { id: Schema.Int }),
  Schema.TaggedStruct("Refused", { id: Schema.Int, message: Schema.String })
])
export type Reply = typeof Reply.Type
