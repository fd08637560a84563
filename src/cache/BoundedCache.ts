/**
 * A least-recently-used cache bounded by a count of entries and by bytes (each entry's size as its caller
 * measures or estimates it), so neither many small entries nor a few large ones can hold the process's memory.
 * An entry larger than the whole byte budget is not kept. It is `lru-cache` with both bounds set; this type
 * only names the two bounds and the size of each entry at its `set`.
 */
import { LRUCache } from "lru-cache"

export interface CacheBounds {
  readonly maxEntries: number
  readonly maxBytes: number
}

export class BoundedCache<K extends {}, V extends {}> {
  private readonly lru: LRUCache<K, V>
  readonly bounds: CacheBounds

  constructor(bounds: CacheBounds) {
    this.bounds = bounds
    this.lru = new LRUCache<K, V>({ max: Math.max(1, bounds.maxEntries), maxSize: Math.max(1, bounds.maxBytes) })
  }

  /** The value kept under `key`, marked most recently used. */
  get(key: K): V | undefined {
    return this.lru.get(key)
  }

  /** Keeps `value` (of `bytes`) under `key`, replacing what was there, evicting the least recently used first. */
  set(key: K, value: V, bytes: number): void {
    this.lru.delete(key)
    if (bytes > this.bounds.maxBytes || this.bounds.maxEntries < 1) return
    this.lru.set(key, value, { size: Math.max(1, bytes) })
  }

  delete(key: K): void {
    this.lru.delete(key)
  }

  /** Entries kept now. */
  get size(): number {
    return this.lru.size
  }

  /** Bytes held now (the sum of the kept entries' sizes). */
  get bytes(): number {
    return this.lru.calculatedSize
  }
}
