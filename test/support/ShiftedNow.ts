/**
 * Preloaded into a service process a test spawns (`node --import`): when
 * PSX_TEST_NOW is set, the process's wall clock (Date.now, which Effect's
 * Clock reads) starts at that instant and runs on with real time — the
 * child-process counterpart of ShiftedClock.ts, so the spawned service
 * judges staleness and trailing windows as of the same instant as the test.
 */
const start = process.env["PSX_TEST_NOW"]
if (start !== undefined && start !== "") {
  const realNow = Date.now.bind(Date)
  const offset = Date.parse(start) - realNow()
  Date.now = () => realNow() + offset
}
