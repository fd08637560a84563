/**
 * Where the JSON logger's lines go (JsonLogger.ts, and the access lines the
 * fast path writes as bytes, AccessLineBytes.ts): standard output, in batches.
 *
 * Lines waiting are kept as bytes in one chunk, written once it is nearly full (64 KiB) or after 20 ms. A line
 * is encoded into the chunk as it is logged, so its text dies young: lines kept as strings for 20 ms outlived
 * the young generation's collections under load and filled the old one (a full collection every few seconds).
 * A chunk written is used again once its write is done (two are kept spare): a new chunk for each write was
 * mapped and unmapped by malloc several times a second under load (scripts/serve.sh has blocks of 32 KiB and
 * more come from mmap), and each unmapping is a TLB flush.
 */

const CHUNK_BYTES = 64 * 1024
const SPARE_CHUNKS = 2
const NEWLINE = 10

class Sink {
  private readonly spare: Array<Buffer> = []
  /** The chunk lines are written into, from `used` on. */
  chunk: Buffer = Buffer.allocUnsafeSlow(CHUNK_BYTES)
  used = 0
  private scheduled = false

  /** Makes room for a line of up to `most` bytes (its newline included): false when no chunk can hold it. */
  reserve(most: number): boolean {
    if (this.used + most > CHUNK_BYTES) this.flush()
    return most <= CHUNK_BYTES
  }

  /** Ends the line written up to `end` with its newline; the batch is written within 20 ms. */
  commit(end: number): void {
    this.chunk[end] = NEWLINE
    this.used = end + 1
    if (!this.scheduled) {
      this.scheduled = true
      setTimeout(this.flush, 20).unref?.()
    }
  }

  /** A line as text (UTF-8 takes at most three bytes for each UTF-16 code unit). */
  text(line: string): void {
    if (!this.reserve(line.length * 3 + 1)) return void process.stdout.write(line + "\n")
    this.commit(this.used + this.chunk.write(line, this.used))
  }

  readonly flush = (): void => {
    this.scheduled = false
    if (this.used === 0) return
    const written = this.chunk
    const lines = written.subarray(0, this.used)
    this.chunk = this.spare.pop() ?? Buffer.allocUnsafeSlow(CHUNK_BYTES)
    this.used = 0
    process.stdout.write(lines, () => {
      if (this.spare.length < SPARE_CHUNKS) this.spare.push(written)
    })
  }
}

/** The process's one sink for log lines. */
export const lineSink = new Sink()
process.once("exit", lineSink.flush)
