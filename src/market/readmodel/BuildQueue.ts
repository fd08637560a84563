/**
 * Who may have a point-in-time snapshot built, and which is built next.
 * Builds are charged to the clients that ask (a client is its key's
 * principal, else its address, as the rate limiter names them): each has a
 * small budget of builds (a token bucket) and at most one build waiting or
 * running that it asked for. One build runs at a time; the next is the one
 * the most clients wait for, then the one whose clients had the fewest
 * builds, then the oldest, so a stream of rare instants from one client
 * cannot starve another's. Cached snapshots are chosen the
 * same way: the most requested stay (SnapshotCache below), within a byte
 * budget. Plain bounded data: no clock of its own, no effects.
 */
import { LRUCache } from "lru-cache"

/** Builds a client may start at once, and how fast its budget comes back (ms per build). */
export const BUILD_BURST = 40
export const BUILD_REFILL_MS = 6_000
/** Instants waiting for the build slot at most (a request beyond them is told to come back). */
export const MAX_WAITING = 32
/** Clients and instants remembered (least recently seen forgotten first). */
const REMEMBERED = 10_000
/** Distinct clients counted per instant's demand. */
const COUNTED_CLIENTS = 64

export type Refusal = { readonly reason: "in_flight" | "budget" | "queue_full"; readonly retryAfterSeconds: number }

export class BuildQueue<T> {
  private readonly budgets = new LRUCache<string, { tokens: number; at: number }>({ max: REMEMBERED })
  /** Each client's build waiting or running, by the key of its instant. */
  private readonly inFlight = new LRUCache<string, string>({ max: REMEMBERED })
  /** Per instant key: the distinct clients that asked recently, and when it was last asked for. */
  private readonly demand = new LRUCache<string, { readonly clients: Set<string>; last: number }>({ max: REMEMBERED })
  private readonly waiting = new Map<
    string,
    { readonly job: T; readonly clients: Set<string>; readonly since: number }
  >()

  /** Requests noted so far: the order of the last request for each instant. */
  private ticks = 0

  /** Notes a request for `key` by `clients` (every request, kept or not). */
  asked(key: string, clients: ReadonlyArray<string>): void {
    const tick = ++this.ticks
    let d = this.demand.get(key)
    if (d === undefined) this.demand.set(key, d = { clients: new Set(), last: tick })
    d.last = tick
    for (const c of clients) if (d.clients.size < COUNTED_CLIENTS) d.clients.add(c)
  }

  /** How much an instant is wanted: distinct clients, then how recently asked for (larger is more). */
  demandOf(key: string): readonly [number, number] {
    const d = this.demand.get(key)
    return d === undefined ? [0, 0] : [d.clients.size, d.last]
  }

  private refilled(client: string, now: number) {
    let b = this.budgets.get(client)
    if (b === undefined) this.budgets.set(client, b = { tokens: BUILD_BURST, at: now })
    b.tokens = Math.min(BUILD_BURST, b.tokens + (now - b.at) / BUILD_REFILL_MS)
    b.at = now
    return b
  }

  /**
   * Charges `clients` for a new build of `key` and queues it, or says why not: a client with a build of
   * another instant in flight, or out of budget, or too many instants waiting.
   */
  enqueue(key: string, job: T, clients: ReadonlyArray<string>, now: number): Refusal | undefined {
    for (const c of clients) {
      const other = this.inFlight.get(c)
      if (other !== undefined && other !== key) return { reason: "in_flight", retryAfterSeconds: 5 }
    }
    const budgets = clients.map((c) => this.refilled(c, now))
    const short = budgets.find((b) => b.tokens < 1)
    if (short !== undefined) {
      return { reason: "budget", retryAfterSeconds: Math.ceil(((1 - short.tokens) * BUILD_REFILL_MS) / 1000) }
    }
    if (this.waiting.size >= MAX_WAITING) return { reason: "queue_full", retryAfterSeconds: 5 }
    for (const b of budgets) b.tokens -= 1
    this.waiting.set(key, { job, clients: new Set(clients), since: now })
    for (const c of clients) this.inFlight.set(c, key)
    return undefined
  }

  /** Adds `clients` to the waiters of `key` (already queued or running): no charge, it is built once. */
  join(key: string, clients: ReadonlyArray<string>): void {
    const w = this.waiting.get(key)
    if (w !== undefined) { for (const c of clients) w.clients.add(c) }
  }

  isWaiting(key: string): boolean {
    return this.waiting.has(key)
  }

  /** Builds charged to a client lately (its spent budget). */
  private used(clients: ReadonlySet<string>): number {
    let most = 0
    for (const c of clients) most = Math.max(most, BUILD_BURST - (this.budgets.get(c)?.tokens ?? BUILD_BURST))
    return most
  }

  /** Takes the next build: the instant most clients wait for, then the one whose clients had the fewest builds, then the oldest. */
  next(): { readonly key: string; readonly job: T } | undefined {
    let best: [string, { readonly job: T; readonly clients: Set<string>; readonly since: number }] | undefined
    for (const entry of this.waiting) {
      const [, w] = entry
      const b = best?.[1]
      if (
        b === undefined || w.clients.size > b.clients.size ||
        (w.clients.size === b.clients.size && (this.used(w.clients) < this.used(b.clients) ||
          (this.used(w.clients) === this.used(b.clients) && w.since < b.since)))
      ) best = entry
    }
    if (best === undefined) return undefined
    this.waiting.delete(best[0])
    return { key: best[0], job: best[1].job }
  }

  /** The build of `key` is over: its clients may ask for another. */
  done(key: string): void {
    for (const [c, k] of [...this.inFlight.entries()]) if (k === key) this.inFlight.delete(c)
  }
}

/**
 * The snapshot cache: at most `maxEntries`, within `maxBytes` (each snapshot's size estimated from its rows).
 * When full, the least wanted goes (fewest distinct clients, then least recently asked for); a new snapshot less
 * wanted than every cached one is not cached (it answers its own requests only). A snapshot no one asked for between
 * two calls of `dropIdle` goes then, so an idle service holds none.
 */
export class SnapshotCache<V> {
  private readonly entries = new Map<string, { readonly value: V; readonly bytes: number; asked: boolean }>()
  private usedBytes = 0

  readonly maxEntries: number
  readonly maxBytes: number
  private readonly demandOf: (key: string) => readonly [number, number]

  constructor(maxEntries: number, maxBytes: number, demandOf: (key: string) => readonly [number, number]) {
    this.maxEntries = maxEntries
    this.maxBytes = maxBytes
    this.demandOf = demandOf
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key)
    if (entry === undefined) return undefined
    entry.asked = true
    return entry.value
  }

  /** Drops the snapshots not asked for since the last call (a new one counts as asked for). */
  dropIdle(): void {
    for (const [key, entry] of [...this.entries]) {
      if (entry.asked) entry.asked = false
      else {
        this.entries.delete(key)
        this.usedBytes -= entry.bytes
      }
    }
  }

  /** Bytes in use now (estimated). */
  bytes(): number {
    return this.usedBytes
  }

  size(): number {
    return this.entries.size
  }

  private least(): string | undefined {
    let worst: string | undefined
    for (const key of this.entries.keys()) {
      if (worst === undefined || less(this.demandOf(key), this.demandOf(worst))) worst = key
    }
    return worst
  }

  set(key: string, value: V, bytes: number): void {
    const old = this.entries.get(key)
    if (old !== undefined) {
      this.entries.delete(key)
      this.usedBytes -= old.bytes
    }
    if (bytes > this.maxBytes || this.maxEntries < 1) return
    while (this.entries.size >= this.maxEntries || this.usedBytes + bytes > this.maxBytes) {
      const worst = this.least()!
      if (less(this.demandOf(key), this.demandOf(worst))) return
      this.usedBytes -= this.entries.get(worst)!.bytes
      this.entries.delete(worst)
    }
    this.entries.set(key, { value, bytes, asked: true })
    this.usedBytes += bytes
  }
}

const less = (a: readonly [number, number], b: readonly [number, number]) =>
  a[0] < b[0] || (a[0] === b[0] && a[1] < b[1])
