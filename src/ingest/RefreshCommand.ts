/**
 * `refresh [--datasets a,b] [--symbols X,Y]`: one complete pass of the
 * crawler from the live portal, progress on a terminal, then a summary per
 * dataset (fetched, written, unchanged, failed with reasons) and the crawl
 * state (progress and last error per dataset). A running service serves
 * what it wrote once its read model sees the store's market version move.
 */
import { Console, Effect, type Layer, Option } from "effect"
import { Command, Flag } from "effect/cli"
import { type PassSummary, PortalCrawler } from "./PortalCrawler.ts"
import { datasetKinds } from "./PortalDatasets.ts"

const list = (raw: Option.Option<string>, upper: boolean) =>
  Option.match(raw, {
    onNone: () => undefined,
    onSome: (s) => s.split(",").map((x) => (upper ? x.trim().toUpperCase() : x.trim())).filter((x) => x !== "")
  })

const progress = (p: { readonly dataset: string; readonly done: number; readonly total: number }) =>
  Effect.sync(() => {
    if (!process.stderr.isTTY) return
    if (p.total > 1 && p.done % 5 !== 0 && p.done !== p.total) return
    process.stderr.write(`\r${p.dataset}: ${p.done}/${p.total}   ${p.done === p.total ? "\n" : ""}`)
  })

export const formatSummary = (summary: PassSummary): ReadonlyArray<string> => [
  `${summary.requests} requests in ${summary.seconds.toFixed(1)} s${
    summary.stopped ? ` (stopped: ${summary.stopped})` : ""
  }`,
  ...summary.datasets.flatMap((d) => [
    `  ${d.dataset.padEnd(16)} fetched ${String(d.fetched).padStart(5)}  written ${String(d.written).padStart(7)}  ` +
    `unchanged ${String(d.unchanged).padStart(7)}  failed ${String(d.failed).padStart(5)}  (${
      (d.ms / 1000).toFixed(1)
    } s)`,
    ...Object.entries(d.reasons).map(([why, n]) => `      ${n} × ${why}`)
  ])
]

export const refreshCommand = <E>(layer: Layer.Layer<PortalCrawler, E>) =>
  Command.make("refresh", {
    datasets: Flag.String("datasets").pipe(
      Flag.withDescription(`Comma-separated dataset kinds (default all): ${datasetKinds.join(", ")}`),
      Flag.optional
    ),
    symbols: Flag.String("symbols").pipe(
      Flag.withDescription(
        "Comma-separated symbols for the per-symbol datasets (default every listed non-debt symbol)"
      ),
      Flag.optional
    )
  }, ({ datasets, symbols }) =>
    Effect.gen(function*() {
      const kinds = list(datasets, false)
      const unknown = (kinds ?? []).filter((k) => !datasetKinds.includes(k))
      if (unknown.length > 0) {
        return yield* Effect.fail(
          new Error(`unknown dataset(s): ${unknown.join(", ")}; known: ${datasetKinds.join(", ")}`)
        )
      }
      const syms = list(symbols, true)
      const crawler = yield* PortalCrawler
      const summary = yield* crawler.pass({
        ...(kinds !== undefined ? { datasets: kinds } : {}),
        ...(syms !== undefined ? { symbols: syms } : {}),
        onProgress: progress
      })
      for (const line of formatSummary(summary)) yield* Console.log(line)
      yield* Console.log(`max RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`)
      yield* Console.log("crawl state (all runs):")
      for (const s of yield* crawler.status) {
        yield* Console.log(
          `  ${s.kind.padEnd(16)} ${s.succeeded}/${s.keys} fetched, ${s.failing} failing, last success ${
            s.last_success ?? "never"
          }` +
            (s.last_error ? `; last error ${s.last_error_at}: ${s.last_error.slice(0, 160)}` : "")
        )
      }
    }).pipe(Effect.provide(layer))).pipe(
      Command.withDescription(
        "One complete pass over the live PSX portal (PSX_PORTAL_URL): every dataset for every listed symbol, or those given; " +
          "progress on a terminal, then a summary (fetched, written, unchanged, failed with reasons)"
      )
    )
