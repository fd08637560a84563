/**
 * The one in-memory cache of the service: least recently used out first, bounded by a count of entries AND by
 * bytes (each entry's size as its caller measures or estimates it), so neither many small entries nor a few large
 * ones can hold the process's memory. An entry larger than the whole byte budget is not kept at all.
 */
export interface CacheBounds {
  readonly maxEntries: number
  readonly maxBytes: number
}

export class BoundedCache<K, V> {
  // A Map iterates in insertion order: re-inserting on use keeps the least recently used first.
  private readonly entries = new Map<K, { readonly value: V; readonly bytes: number }>()
  private held = 0
  // The most recently used key: reading it again moves nothing (a Map re-inserted on every read of the same key
  // rebuilds its table every few reads, garbage that outlives V8's young collections; see RecentMap.ts).
  private newest: K | undefined = undefined

  readonly bounds: CacheBounds

  constructor(bounds: CacheBounds) {
    this.bounds = bounds
  }

  /** The value kept under `key`, marked most recently used. */
  get(key: K): V | undefined {
    const entry = this.entries.get(key)
    if (entry === undefined) return undefined
    if (key !== this.newest) {
      this.entries.delete(key)
      this.entries.set(key, entry)
      this.newest = key
    }
    return entry.value
  }

  /** Keeps `value` (of `bytes`) under `key`, replacing what was there, evicting the least recently used first. */
  set(key: K, value: V, bytes: number): void {
    this.delete(key)
    if (bytes > this.bounds.maxBytes || this.bounds.maxEntries < 1) return
    while (this.entries.size >= this.bounds.maxEntries || this.held + bytes > this.bounds.maxBytes) {
      const oldest = this.entries.keys().next()
      if (oldest.done === true) break
      this.delete(oldest.value)
    }
    this.entries.set(key, { value, bytes })
    this.newest = key
    this.held += bytes
  }

  delete(key: K): void {
    const entry = this.entries.get(key)
    if (entry === undefined) return
    this.entries.delete(key)
    if (key === this.newest) this.newest = undefined
    this.held -= entry.bytes
  }

  /** Entries kept now. */
  get size(): number {
    return this.entries.size
  }

  /** Bytes held now (the sum of the kept entries' sizes). */
  get bytes(): number {
    return this.held
  }
}
