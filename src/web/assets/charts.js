// @ts-check
// Charts for every page, drawn by uPlot (served from this origin): a time
// line chart and a category bar chart. Colours come from the style sheet's
// variables, so a chart follows the light or dark theme of the system, and
// is redrawn when the theme or the container's width changes.
import uPlot from "./vendor/uplot.js"

/** @param {string} name */
const cssVar = (name) => getComputedStyle(document.documentElement).getPropertyValue(name).trim()

const palette = () => ({
  ink: cssVar("--ink"),
  grid: cssVar("--chart-grid"),
  series: [cssVar("--chart-1"), cssVar("--chart-2"), cssVar("--chart-3")]
})

const dark = window.matchMedia("(prefers-color-scheme: dark)")

/**
 * Mounts a chart that rebuilds itself on resize and on a theme change.
 * @param {HTMLElement} container
 * @param {(width: number, colours: ReturnType<typeof palette>) => uPlot.Options} options
 * @param {uPlot.AlignedData} data
 * @param {{ label: string }} described
 */
const mount = (container, options, data, described) => {
  /** @type {any} */
  let chart
  const build = () => {
    chart?.destroy()
    container.replaceChildren()
    chart = new uPlot(options(Math.max(260, container.clientWidth), palette()), data, container)
  }
  build()
  container.setAttribute("role", "img")
  container.setAttribute("aria-label", described.label)
  let width = container.clientWidth
  const resized = new ResizeObserver(() => {
    if (Math.abs(container.clientWidth - width) < 2) return
    width = container.clientWidth
    chart.setSize({ width: Math.max(260, width), height: chart.height })
  })
  resized.observe(container)
  dark.addEventListener("change", build)
  return {
    destroy: () => {
      resized.disconnect()
      dark.removeEventListener("change", build)
      chart?.destroy()
      container.replaceChildren()
    }
  }
}

/** @param {ReturnType<typeof palette>} c @param {number} size */
const axis = (c, size = 60) => ({ stroke: c.ink, grid: { stroke: c.grid, width: 1 }, ticks: { stroke: c.grid }, size })

/**
 * A line chart over dates. `xs` are ISO dates; each series has a label and
 * one value per date (null where unknown: the line breaks, never drops to 0).
 * @param {HTMLElement} container
 * @param {{ xs: string[], series: Array<{ label: string, values: Array<number | null>, fill?: boolean }>, label: string, height?: number }} spec
 */
export const lineChart = (container, spec) => {
  const xs = spec.xs.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000)
  return mount(
    container,
    (width, c) => ({
      width,
      height: spec.height ?? 300,
      scales: { x: { time: true } },
      tzDate: (/** @type {number} */ ts) => uPlot.tzDate(new Date(ts * 1000), "Etc/UTC"),
      cursor: { drag: { x: false, y: false } },
      series: [
        { label: "Date" },
        ...spec.series.map((s, i) => ({
          label: s.label,
          stroke: c.series[i % c.series.length],
          width: 2,
          spanGaps: false,
          ...(s.fill ? { fill: `${c.series[i % c.series.length]}22` } : {})
        }))
      ],
      axes: [{ ...axis(c, 40), space: 70, incrs: DAY_STEPS, values: dateLabels }, axis(c, 80)]
    }),
    [xs, ...spec.series.map((s) => s.values)],
    spec
  )
}

/**
 * Bars by category (side by side when there are several series). Values are
 * numbers or null (unknown: no bar, and the table beside says "unknown").
 * @param {HTMLElement} container
 * Horizontal bars (one row per category, labels at the left) suit many categories.
 * @param {{ categories: string[], series: Array<{ label: string, values: Array<number | null> }>, label: string, height?: number, horizontal?: boolean }} spec
 */
export const barChart = (container, spec) => {
  const n = spec.series.length
  const across = spec.horizontal === true
  const xs = spec.categories.map((_, i) => i)
  const bars = /** @type {NonNullable<typeof uPlot.paths.bars>} */ (uPlot.paths.bars)
  return mount(
    container,
    (width, c) => ({
      width,
      height: spec.height ?? (across ? 40 + spec.categories.length * 20 * Math.max(1, n * 0.8) : 260),
      scales: {
        x: { time: false, range: () => [-0.5, spec.categories.length - 0.5], ...(across ? { ori: 1, dir: -1 } : {}) },
        y: { ...(across ? { ori: 0, dir: 1 } : {}), range: (/** @type {any} */ _u, /** @type {number} */ min, /** @type {number} */ max) => [Math.min(0, min * 1.1), Math.max(0, max * 1.1) || 1] }
      },
      cursor: { drag: { x: false, y: false } },
      legend: { show: true },
      series: [
        { label: "", value: (/** @type {any} */ _u, /** @type {number} */ i) => spec.categories[Math.round(i)] ?? "" },
        ...spec.series.map((s, i) => ({
          label: s.label,
          stroke: c.series[i % c.series.length],
          fill: c.series[i % c.series.length],
          width: 0,
          paths: bars({
            disp: {
              x0: { unit: 1, values: () => xs.map((x) => x - GROUP / 2 + i * (GROUP / n)) },
              size: { unit: 1, values: () => xs.map(() => GROUP / n) }
            }
          }),
          points: { show: false }
        }))
      ],
      axes: [
        {
          ...axis(c, across ? 150 : 50),
          ...(across ? { side: 3 } : {}),
          grid: { show: false },
          splits: () => xs,
          values: (/** @type {any} */ _u, /** @type {number[]} */ splits) => splits.map((i) => short(spec.categories[i] ?? ""))
        },
        { ...axis(c, across ? 40 : 70), ...(across ? { side: 2 } : {}) }
      ]
    }),
    [xs, ...spec.series.map((s) => s.values)],
    spec
  )
}

const DAY = 86_400
/** Tick steps of whole days, weeks, months and years: a daily series has no hours to mark. */
const DAY_STEPS = [DAY, 2 * DAY, 7 * DAY, 14 * DAY, 30 * DAY, 91 * DAY, 182 * DAY, 365 * DAY, 730 * DAY, 1825 * DAY]
const monthDay = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", timeZone: "UTC" })
const monthYear = new Intl.DateTimeFormat("en-GB", { month: "short", year: "numeric", timeZone: "UTC" })
/** @param {any} _u @param {number[]} splits @param {number} _axis @param {number} _space @param {number} step */
const dateLabels = (_u, splits, _axis, _space, step) =>
  splits.map((s) => (step >= 30 * DAY ? monthYear : monthDay).format(new Date(s * 1000)))

/** The share of each category's slot its bars take together. */
const GROUP = 0.8

/** @param {string} text */
const short = (text) => (text.length > 18 ? `${text.slice(0, 17)}…` : text)
