/**
 * A map bounded by a count of entries that keeps the recently used ones, at no cost per use: for the rate
 * limiter's buckets and remembered credentials, touched on every request.
 *
 * Entries live in two generations, each a Map holding at most half the bound. A new entry, or one read from the
 * older generation, goes into the newer one; when the newer one is full it becomes the older one and the older
 * one is dropped whole. An entry used at least once per half-bound of new entries is never dropped; one unused
 * for a full bound of new entries is. A read of an entry already in the newer generation changes nothing.
 *
 * Why not a Map re-inserted on every use (exact LRU): under load that deletes and re-adds the same key on every
 * request, which rebuilds the Map's table every few requests; those tables outlived V8's young-generation
 * collections and filled the old one, so a full collection (a 7–19 ms pause, the route's p99) came every two
 * seconds (`npm run bench`, issue 36).
 */
export class RecentMap<K, V> {
  private newer = new Map<K, V>()
  private older = new Map<K, V>()
  private readonly half: number

  /** `bound`: entries kept at the most (at least 2). */
  constructor(bound: number) {
    this.half = Math.max(1, Math.floor(bound / 2))
  }

  /** The value under `key`, kept as recently used. */
  get(key: K): V | undefined {
    const value = this.newer.get(key)
    if (value !== undefined || this.older.size === 0) return value
    const old = this.older.get(key)
    if (old !== undefined) {
      this.older.delete(key)
      this.add(key, old)
    }
    return old
  }

  set(key: K, value: V): void {
    if (this.newer.has(key)) {
      this.newer.set(key, value)
      return
    }
    this.older.delete(key)
    this.add(key, value)
  }

  delete(key: K): void {
    if (!this.newer.delete(key)) this.older.delete(key)
  }

  get size(): number {
    return this.newer.size + this.older.size
  }

  *entries(): IterableIterator<[K, V]> {
    yield* this.newer
    yield* this.older
  }

  private add(key: K, value: V) {
    this.newer.set(key, value)
    if (this.newer.size >= this.half) {
      this.older = this.newer
      this.newer = new Map()
    }
  }
}
