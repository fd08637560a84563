/**
 * A least-recently-used cache of stream prefixes bounded by bytes, not by a
 * count of streams: a few long streams cannot hold the process's memory,
 * and a stream larger than the whole budget is not kept at all. Streams are
 * append-only, so a cached prefix stays true; the caller reads only what
 * follows it.
 */
export const STREAM_CACHE_BYTES = 64 * 1024 * 1024

export class StreamCache<A> {
  private readonly entries = new Map<string, { readonly items: ReadonlyArray<A>; readonly bytes: number }>()
  private bytes = 0
  readonly limit: number

  constructor(limit: number = STREAM_CACHE_BYTES) {
    this.limit = limit
  }

  /** The cached prefix of a stream (and marks it most recently used). */
  get(key: string): ReadonlyArray<A> | undefined {
    const entry = this.entries.get(key)
    if (entry === undefined) return undefined
    this.entries.delete(key)
    this.entries.set(key, entry)
    return entry.items
  }

  /** Keeps `items` (which extend the cached prefix by `addedBytes`), evicting the least recently used first. */
  set(key: string, items: ReadonlyArray<A>, addedBytes: number): void {
    const before = this.entries.get(key)
    const size = (before?.bytes ?? 0) + addedBytes
    this.delete(key)
    if (size > this.limit) return
    while (this.bytes + size > this.limit) {
      const oldest = this.entries.keys().next().value
      if (oldest === undefined) break
      this.delete(oldest)
    }
    this.entries.set(key, { items, bytes: size })
    this.bytes += size
  }

  delete(key: string): void {
    const entry = this.entries.get(key)
    if (entry === undefined) return
    this.entries.delete(key)
    this.bytes -= entry.bytes
  }

  /** Bytes held now (for tests and metrics). */
  get size(): number {
    return this.bytes
  }
}
