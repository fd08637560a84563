/**
 * Long pure work in steps: a generator that pauses (yields) between slices
 * of its work. `runSteps` finishes it at once; a service that must keep
 * answering while it runs (the read model building a snapshot) resumes it a
 * slice at a time and lets other work run in between.
 */
export type Steps<A> = Generator<void, A, void>

/** Runs steps to the end, with no pause. */
export const runSteps = <A>(steps: Steps<A>): A => {
  for (;;) {
    const r = steps.next()
    if (r.done === true) return r.value
  }
}
