/**
 * What a credential may do beyond reading market data (which every key may),
 * and the rule for managing credentials:
 *
 * - the owner's session credential may manage keys (create, list, revoke);
 * - an API key may manage keys only with the explicit grant `keys:manage`,
 *   which no credential is ever given by default;
 * - no credential can mint or revoke a credential holding a grant it does not
 *   hold itself (a session holds owner rights: only a session revokes one).
 */
import { Schema } from "effect"

export const GRANTS = ["portfolio:read", "portfolio:write", "keys:manage"] as const
export const Grant = Schema.Literals(GRANTS)
export type Grant = typeof Grant.Type

/** The grants a session carries for the portfolio endpoints (key management comes from being a session). */
export const SESSION_GRANTS: ReadonlyArray<Grant> = ["portfolio:read", "portfolio:write"]

export interface Principal {
  readonly userId: string
  readonly keyId: string
  readonly kind: "session" | "key"
  readonly grants: ReadonlyArray<Grant>
}

/** Whether the principal may create, list or revoke credentials at all. */
export const mayManageKeys = (p: Principal) => p.kind === "session" || p.grants.includes("keys:manage")

/** The grants the principal effectively holds (a session holds keys:manage by being the owner's credential). */
export const effectiveGrants = (p: Principal): ReadonlyArray<Grant> => p.kind === "session" ? GRANTS : p.grants

/** Grants in `wanted` that `p` does not hold (empty: it may mint or revoke such a credential). */
export const grantsBeyond = (
  p: Principal,
  target: { readonly kind: "session" | "key"; readonly grants: ReadonlyArray<Grant> }
) => {
  if (p.kind === "session") return []
  if (target.kind === "session") return ["the owner's session"]
  return target.grants.filter((g) => !p.grants.includes(g))
}
