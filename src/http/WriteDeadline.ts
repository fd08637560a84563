/**
 * The request deadline and writes (RequestGate.ts answers a request still
 * unanswered after the deadline with a 503). A write must either answer what
 * it did or be stopped before it commits: `beginCommit` is asked just before
 * a write's commit. It answers false when the deadline has already answered
 * the request (the write must not commit), else it exempts the request from
 * the deadline from then on (the write answers itself once it committed).
 * Keyed by node's request object (`HttpServerRequest.source`).
 */
const committing = new WeakSet<object>()
const expired = new WeakSet<object>()

/** Whether a write may commit for this request; if so, the deadline no longer answers it. */
export const beginCommit = (request: object): boolean => {
  if (expired.has(request)) return false
  committing.add(request)
  return true
}

/** Called by the deadline: whether it may answer the request (no commit has begun); if so, no commit may begin. */
export const deadlinePasses = (request: object): boolean => {
  if (committing.has(request)) return false
  expired.add(request)
  return true
}
