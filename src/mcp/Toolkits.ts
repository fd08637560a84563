/** Every tool the endpoint serves (SPEC 4.6 lists fifteen) and their handlers, needing the market services. */
import { Layer } from "effect"
import { Toolkit } from "effect/ai"
import { ScreenToolkit, ScreenToolkitLive } from "./ScreenTools.ts"
import { SectorToolkit, SectorToolkitLive } from "./SectorTools.ts"
import { PsxToolkit, PsxToolkitLive } from "./Tools.ts"

export const ServedToolkit = Toolkit.merge(PsxToolkit, SectorToolkit, ScreenToolkit)

export const ServedToolkitLive = Layer.mergeAll(PsxToolkitLive, SectorToolkitLive, ScreenToolkitLive)
