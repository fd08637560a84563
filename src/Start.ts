/** The command line on Node's runtime, with the teardown that closes the store. */
import { NodeRuntime, NodeServices } from "@effect/platform-node"
import { Effect } from "effect"
import { run } from "./Cli.ts"
import { teardown } from "./Teardown.ts"

run.pipe(Effect.provide(NodeServices.layer), NodeRuntime.runMain({ teardown }))
