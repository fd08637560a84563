/** What a parser hands back: the rows it could read, and a count of what it left out and why. */
export interface Parsed<A> {
  readonly rows: ReadonlyArray<A>
  /** reason → how many values or rows were left out for it. */
  readonly skipped: Readonly<Record<string, number>>
}

export const collector = <A>() => {
  const rows: Array<A> = []
  const skipped: Record<string, number> = {}
  return {
    rows,
    skip: (reason: string) => {
      skipped[reason] = (skipped[reason] ?? 0) + 1
    },
    done: (): Parsed<A> => ({ rows, skipped })
  }
}

/** Copies only the defined values: absent stays absent, never 0 or null. */
export function defined<T extends Record<string, unknown>>(o: T): { [K in keyof T]?: Exclude<T[K], undefined> }
// The loop keeps exactly the keys of `o` whose values are defined, which is the type above.
export function defined(o: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const k in o) if (o[k] !== undefined) out[k] = o[k]
  return out
}
