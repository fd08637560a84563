/**
 * One process per embedded data directory. PGlite keeps one process's view
 * of its files: a second process opening the same directory would corrupt
 * it. So the directory holds `psx.lock` with the pid of the process using
 * it, created exclusively; a second start finds it and stops, naming the
 * directory and that pid. A lock whose pid is no longer running (a process
 * killed with SIGKILL) is stale: it is taken over. Removed when the scope
 * closes. Nested locks by the same process are allowed (only the outer one
 * removes the file).
 */
import { Data, Effect } from "effect"
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join, resolve } from "node:path"

export class DataDirLocked extends Data.TaggedError("DataDirLocked")<{
  readonly message: string
  readonly directory: string
  readonly pid: number | undefined
}> {}

export const LOCK_FILE = "psx.lock"

/** Whether a process with this pid runs (EPERM: it runs as another user). */
export const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM"
  }
}

const readPid = (file: string): number | undefined => {
  try {
    const pid = Number.parseInt(readFileSync(file, "utf8").trim(), 10)
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined
  } catch {
    return undefined
  }
}

/** Creates the lock file exclusively: "taken", or the pid holding it (undefined if unreadable). */
const tryCreate = (
  file: string,
  pid: number
): { readonly taken: true } | { readonly taken: false; readonly holder: number | undefined } => {
  try {
    writeFileSync(file, `${pid}\n`, { flag: "wx" })
    return { taken: true }
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e
    return { taken: false, holder: readPid(file) }
  }
}

const acquire = (directory: string, pid: number) =>
  Effect.try({
    try: () => {
      mkdirSync(directory, { recursive: true })
      const file = join(directory, LOCK_FILE)
      for (let attempt = 0; attempt < 3; attempt++) {
        const r = tryCreate(file, pid)
        if (r.taken) return { file, holder: undefined, owned: true }
        // Already held by this process (the serve command locks before it listens): nested, not released here.
        if (r.holder === pid) return { file, holder: undefined, owned: false }
        if (r.holder !== undefined && isRunning(r.holder)) return { file, holder: r.holder, owned: false }
        // Stale (its process is gone) or unreadable: take it over.
        rmSync(file, { force: true })
      }
      return { file, holder: readPid(file), owned: false }
    },
    catch: (cause) =>
      new DataDirLocked({
        message: `cannot lock the data directory ${directory}: ${String(cause)}`,
        directory,
        pid: undefined
      })
  }).pipe(Effect.flatMap(({ file, holder, owned }) =>
    holder === undefined
      ? Effect.succeed({ file, owned })
      : Effect.fail(
        new DataDirLocked({
          message: `the data directory ${directory} is in use by another process (pid ${holder}); ` +
            `stop it, or set PSX_DATA_DIR to another directory`,
          directory,
          pid: holder
        })
      )
  ))

/**
 * Holds `dataDir` for this process for the scope's lifetime; fails with
 * DataDirLocked when a running process holds it. `memory://` needs no lock.
 */
export const lockDataDir = (dataDir: string, pid: number = process.pid) =>
  dataDir.startsWith("memory://") ? Effect.void : Effect.asVoid(Effect.acquireRelease(
    Effect.tapError(
      acquire(resolve(dataDir), pid),
      (e) => Effect.sync(() => process.stderr.write(`psx: ${e.message}\n`))
    ),
    ({ file, owned }) =>
      Effect.sync(() => {
        if (owned && readPid(file) === pid) rmSync(file, { force: true })
      })
  ))
