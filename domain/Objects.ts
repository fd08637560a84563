/**
 * Building records whose unknown values are absent keys: never 0, never
 * null, never a key holding `undefined`.
 */

/** Only the keys whose values are defined: `{ ...defined({ k: x }) }` adds `k` when `x` is defined. */
export const defined = <T extends Record<string, unknown>>(o: T): { [K in keyof T]?: Exclude<T[K], undefined> } => {
  const out: Record<string, unknown> = {}
  for (const k in o) if (o[k] !== undefined) out[k] = o[k]
  return out as { [K in keyof T]?: Exclude<T[K], undefined> }
}
