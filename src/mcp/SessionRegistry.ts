/**
 * The MCP sessions the server keeps, with what each one costs and whose it is;
 * it decides which sessions end, and Sessions.ts ends them. No I/O.
 *
 * Each session is charged its bytes (the JSON of the `initialize` it keeps,
 * plus SESSION_OVERHEAD_BYTES for the transport's own state) and belongs to
 * its client address and, when the request carried `Authorization`, to that
 * credential (a principal). Admitting a new session ends, in this order:
 *
 * 1. while its address, or its principal, holds `perClient` sessions: that
 *    holder's own least recently used session. A client at its limit only ever
 *    ends its own sessions;
 * 2. while the total is over `cap` sessions or `budgetBytes` bytes: the least
 *    recently used session of the address that holds the most bytes. A flood
 *    from some addresses ends their own sessions before anyone else's.
 *
 * A session unused for `ttlMs` is ended whoever holds it. A session keeps the
 * credential it was started with (`heldBy`: Sessions.ts refuses a request of
 * the session with another credential, or with one when it was started without).
 */

/**
 * Bytes charged to every session beside its `initialize`: the transport's own state. Measured in the heap after
 * a full collection, 300 sessions cost 2–13 KB each (11 KB for a minimal `initialize`, the maps' growth included).
 */
export const SESSION_OVERHEAD_BYTES = 8_192

export interface RegistryLimits {
  /** A session unused for this long is ended (ms). */
  readonly ttlMs: number
  /** Sessions kept at most. */
  readonly cap: number
  /** Sessions one address, or one credential, may hold. */
  readonly perClient: number
  /** Bytes all sessions may be charged together. */
  readonly budgetBytes: number
}

/** Who opened a session: its address and, when it sent one, a digest of its credential. */
export interface Owner {
  readonly address: string
  readonly principal: string | undefined
}

interface Entry {
  at: number
  readonly bytes: number
  readonly holders: ReadonlyArray<string>
  readonly principal: string | undefined
}

interface Holder {
  bytes: number
  /** Its sessions, least recently used first. */
  readonly ids: Set<string>
}

const addressKey = (address: string) => `address:${address}`

export const makeSessionRegistry = (limits: RegistryLimits) => {
  /** Every session, least recently used first. */
  const sessions = new Map<string, Entry>()
  const holders = new Map<string, Holder>()
  let totalBytes = 0

  const remove = (id: string) => {
    const entry = sessions.get(id)
    if (entry === undefined) return false
    sessions.delete(id)
    totalBytes -= entry.bytes
    for (const key of entry.holders) {
      const holder = holders.get(key)!
      holder.ids.delete(id)
      holder.bytes -= entry.bytes
      if (holder.ids.size === 0) holders.delete(key)
    }
    return true
  }

  const oldestOf = (key: string) => holders.get(key)?.ids.values().next().value

  /** The least recently used session of the address holding the most bytes. */
  const largestHoldersOldest = () => {
    let largest: Holder | undefined
    for (const [key, holder] of holders) {
      if (key.startsWith("address:") && (largest === undefined || holder.bytes > largest.bytes)) largest = holder
    }
    return largest?.ids.values().next().value
  }

  /** Ends `id` (when kept), recording it among the ended. */
  const end = (id: string | undefined, ended: Array<string>) => {
    if (id === undefined || !remove(id)) return false
    ended.push(id)
    return true
  }

  return {
    /** Marks a session used now; false when it is not kept here. */
    touch: (id: string, now: number) => {
      const entry = sessions.get(id)
      if (entry === undefined) return false
      sessions.delete(id)
      entry.at = now
      sessions.set(id, entry)
      for (const key of entry.holders) {
        const ids = holders.get(key)!.ids
        ids.delete(id)
        ids.add(id)
      }
      return true
    },
    /** Forgets the sessions idle for `ttlMs` and returns their ids. */
    expire: (now: number) => {
      const ended: Array<string> = []
      for (const [id, entry] of sessions) {
        if (now - entry.at < limits.ttlMs) break
        ended.push(id)
      }
      for (const id of ended) remove(id)
      return ended
    },
    /** Keeps a new session charged `bytes`; returns the ids of the sessions to end for it. */
    admit: (id: string, owner: Owner, bytes: number, now: number) => {
      const keys = owner.principal === undefined
        ? [addressKey(owner.address)]
        : [addressKey(owner.address), `principal:${owner.principal}`]
      const ended: Array<string> = []
      for (const key of keys) {
        while ((holders.get(key)?.ids.size ?? 0) >= limits.perClient && end(oldestOf(key), ended));
      }
      while (
        (sessions.size + 1 > limits.cap || totalBytes + bytes > limits.budgetBytes) &&
        end(largestHoldersOldest(), ended)
      );
      sessions.set(id, { at: now, bytes, holders: keys, principal: owner.principal })
      totalBytes += bytes
      for (const key of keys) {
        const holder = holders.get(key) ?? { bytes: 0, ids: new Set<string>() }
        holder.bytes += bytes
        holder.ids.add(id)
        holders.set(key, holder)
      }
      return ended
    },
    /** Whether a request with `principal` may use session `id`: its own credential (or none, as it started); true when not kept. */
    heldBy: (id: string, principal: string | undefined) => {
      const entry = sessions.get(id)
      return entry === undefined || entry.principal === principal
    },
    /** Forgets a session ended by its client; false when it was not kept. */
    remove,
    /** The sessions kept and the bytes charged to them. */
    size: () => ({ sessions: sessions.size, bytes: totalBytes })
  }
}

export type SessionRegistry = ReturnType<typeof makeSessionRegistry>
