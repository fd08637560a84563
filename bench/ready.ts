/** Waiting for a service a benchmark started: polls a URL until it answers 2xx with a body `ready` accepts. */
export const waitFor = async (url: string, ms: number, ready: (body: any) => boolean = () => true) => {
  const until = Date.now() + ms
  while (Date.now() < until) {
    try {
      const r = await fetch(url, { signal: AbortSignal.timeout(5_000) })
      if (r.ok && ready(await r.json())) return
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250))
  }
  throw new Error(`${url} did not come up`)
}
