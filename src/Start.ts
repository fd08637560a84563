/** The command line on Node's runtime, with the teardown that closes the store. */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Effect } from "effect"
import { run } from "./Cli.ts"
import { teardown } from "./Teardown.ts"

run.pipe(Effect.provide(NodeServices.layer), NodeRuntime.runMain({ teardown }))
