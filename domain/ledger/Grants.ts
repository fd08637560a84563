/** What a credential may do beyond reading market data (which every key may). */
import { Schema } from "effect"

export const GRANTS = ["portfolio:read", "portfolio:write"] as const
export const Grant = Schema.Literals(GRANTS)
export type Grant = typeof Grant.Type
