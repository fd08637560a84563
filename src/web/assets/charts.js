// @ts-check
// Charts for every page, drawn by uPlot (served from this origin): a time
// line chart (with optional trade markers) and a category bar chart.
// Colours come from the style sheet's variables, so a chart follows the
// light or dark theme, and is redrawn when the theme or the width changes.
// The legend shows the latest point until the pointer picks another, never
// "--"; negative bars take the "down" colour.
import uPlot from "./vendor/uplot.js"
import { dateText, formatNumber, MONTHS } from "./format.js"

/** @param {string} name */
const cssVar = (name) => getComputedStyle(document.documentElement).getPropertyValue(name).trim()

const palette = () => ({
  ink: cssVar("--ink"),
  grid: cssVar("--chart-grid"),
  up: cssVar("--ok"),
  down: cssVar("--bad"),
  buy: cssVar("--ok"),
  sell: cssVar("--bad"),
  flag: cssVar("--focus"),
  series: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((i) => cssVar(`--chart-${i}`)).filter(Boolean)
})

const dark = window.matchMedia("(prefers-color-scheme: dark)")
const AXIS_FONT = "12px system-ui, -apple-system, \"Segoe UI\", Roboto, sans-serif"

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
    container.removeAttribute("aria-busy")
    chart = new uPlot(options(Math.max(260, container.clientWidth), palette()), data, container)
  }
  build()
  container.setAttribute("role", "img")
  container.setAttribute("aria-label", described.label)
  let width = container.clientWidth
  const resized = new ResizeObserver(() => {
    if (Math.abs(container.clientWidth - width) < 2) return
    width = container.clientWidth
    build()
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

/** @param {ReturnType<typeof palette>} c @param {number | ((...args: any[]) => number)} size */
const axis = (c, size = 60) => ({ stroke: c.ink, font: AXIS_FONT, grid: { stroke: c.grid, width: 1 }, ticks: { stroke: c.grid }, size })

/** The last index holding a value (the legend's default point). @param {Array<number | null>} values */
const lastKnown = (values) => {
  for (let i = values.length - 1; i >= 0; i--) if (values[i] !== null && values[i] !== undefined) return i
  return values.length - 1
}

/** @typedef {(v: number) => string} Format */
/** Axis and legend numbers: rupees compact in lakh and crore, or as given. @type {Format} */
const plain = (v) => {
  const a = Math.abs(v)
  return a >= 1e7 ? `${formatNumber(v / 1e7, a >= 1e9 ? 0 : 2)} crore` : a >= 1e5 ? `${formatNumber(v / 1e5, 1)} lakh` : formatNumber(v, a >= 100 || Number.isInteger(v) ? 0 : 2)
}

/**
 * Markers on the first series: triangles at a trade's date (up for a buy
 * under the line, down for a sell over it), or a ring on a point whose
 * figure is less sure than the others (a flagged day).
 * @param {Array<{ x: number, kind: "buy" | "sell" | "flag" }>} markers @param {ReturnType<typeof palette>} c
 */
const markerPlugin = (markers, c) => ({
  hooks: {
    draw: [(/** @type {any} */ u) => {
      const ctx = u.ctx
      const xs = u.data[0]
      const ys = u.data[1]
      const r = 6 * devicePixelRatio
      for (const m of markers) {
        let i = xs.findIndex((/** @type {number} */ x) => x >= m.x)
        if (i < 0) continue
        while (m.kind !== "flag" && i > 0 && ys[i] == null) i--
        if (ys[i] == null) continue
        const px = u.valToPos(xs[i], "x", true)
        const py = u.valToPos(ys[i], "y", true)
        if (m.kind === "flag") {
          ctx.beginPath()
          ctx.arc(px, py, r, 0, 2 * Math.PI)
          ctx.lineWidth = 2.5 * devicePixelRatio
          ctx.strokeStyle = c.flag
          ctx.stroke()
          continue
        }
        const up = m.kind === "buy"
        const tip = up ? py + r * 0.6 : py - r * 0.6
        const base = up ? tip + r * 1.6 : tip - r * 1.6
        ctx.beginPath()
        ctx.moveTo(px, tip)
        ctx.lineTo(px - r, base)
        ctx.lineTo(px + r, base)
        ctx.closePath()
        ctx.fillStyle = up ? c.buy : c.sell
        ctx.fill()
      }
    }]
  }
})

/**
 * A line chart over dates. `xs` are ISO dates; each series has a label and
 * one value per date (null where unknown: the line breaks, never drops to 0).
 * @param {HTMLElement} container
 * @param {{ xs: string[], series: Array<{ label: string, values: Array<number | null>, fill?: boolean, dash?: boolean }>,
 *   label: string, height?: number, format?: Format, legendFormat?: Format, markers?: Array<{ date: string, kind: "buy" | "sell" | "flag" }>,
 *   onCursor?: (index: number | null) => void }} spec
 * `format` labels the axis; `legendFormat` (else `format`) the legend's values; `onCursor` hears the index of the
 * date under the pointer (null when it leaves).
 */
export const lineChart = (container, spec) => {
  const xs = spec.xs.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000)
  const format = spec.format ?? plain
  const legend = spec.legendFormat ?? format
  const markers = (spec.markers ?? []).map((m) => ({ x: Date.parse(`${m.date}T00:00:00Z`) / 1000, kind: m.kind }))
  return mount(
    container,
    (width, c) => ({
      width,
      height: spec.height ?? (width < 500 ? 200 : 300),
      scales: { x: { time: true } },
      tzDate: (/** @type {number} */ ts) => uPlot.tzDate(new Date(ts * 1000), "Etc/UTC"),
      cursor: { drag: { x: false, y: false } },
      plugins: markers.length ? [markerPlugin(markers, c)] : [],
      ...(spec.onCursor ? { hooks: { setCursor: [(/** @type {any} */ u) => spec.onCursor?.(u.cursor.idx ?? null)] } } : {}),
      series: [
        { label: "Date", value: (/** @type {any} */ u, /** @type {number | null} */ v, /** @type {number} */ _s, /** @type {number | null} */ idx) => dateOf(idx === null ? xs[lastKnown(spec.series[0]?.values ?? [])] : v) },
        ...spec.series.map((s, i) => ({
          label: s.label,
          stroke: c.series[i % c.series.length],
          width: 2,
          spanGaps: false,
          ...(s.dash ? { dash: [6, 4] } : {}),
          ...(s.fill ? { fill: `${c.series[i % c.series.length]}22` } : {}),
          value: (/** @type {any} */ _u, /** @type {number | null} */ v, /** @type {number} */ _s, /** @type {number | null} */ idx) => {
            const shown = idx === null ? s.values[lastKnown(s.values)] : v
            return typeof shown === "number" ? legend(shown) : "unknown"
          }
        }))
      ],
      axes: [
        { ...axis(c, 40), space: 70, incrs: DAY_STEPS, values: dateLabels },
        { ...axis(c, (/** @type {any} */ u, /** @type {string[] | null} */ values) => labelWidth(values ?? [], 40) + 16), values: (/** @type {any} */ _u, /** @type {number[]} */ splits) => splits.map(format) }
      ]
    }),
    [xs, ...spec.series.map((s) => s.values)],
    spec
  )
}

/** @param {number | null | undefined} ts */
const dateOf = (ts) => (typeof ts === "number" ? dateText(new Date(ts * 1000).toISOString().slice(0, 10)) : "unknown")

/** @type {CanvasRenderingContext2D | null} */
let measurer = null
/** The widest label's pixels, at least `min`. @param {string[]} labels @param {number} min */
const labelWidth = (labels, min) => {
  measurer ??= document.createElement("canvas").getContext("2d")
  if (!measurer) return min
  measurer.font = AXIS_FONT
  return Math.max(min, ...labels.map((l) => Math.ceil(measurer?.measureText(String(l)).width ?? 0)))
}

/** A label shortened (with …) to fit `px`. @param {string} text @param {number} px */
const fit = (text, px) => {
  if (labelWidth([text], 0) <= px) return text
  let cut = text
  while (cut.length > 3 && labelWidth([`${cut}…`], 0) > px) cut = cut.slice(0, -1)
  return `${cut.trimEnd()}…`
}

/**
 * Bars by category (side by side when there are several series). Values are
 * numbers or null (unknown: no bar, and the table beside says "unknown").
 * Horizontal bars (one row per category, labels at the left, sized to fit)
 * suit many categories; with `signed`, a negative bar is drawn in the "down" colour.
 * @param {HTMLElement} container
 * @param {{ categories: string[], series: Array<{ label: string, values: Array<number | null> }>, label: string, height?: number,
 *   horizontal?: boolean, signed?: boolean, format?: Format, categoryLabel?: string }} spec
 */
export const barChart = (container, spec) => {
  const n = spec.series.length
  const across = spec.horizontal === true
  const xs = spec.categories.map((_, i) => i)
  const bars = /** @type {NonNullable<typeof uPlot.paths.bars>} */ (uPlot.paths.bars)
  const format = spec.format ?? plain
  /** The share of a category's slot its bars take: 80%, but no bar wider than 56 px. @param {any} u */
  const groupOf = (u) => Math.min(GROUP, (56 * n) / Math.max(1, (across ? u.bbox.height : u.bbox.width) / devicePixelRatio / Math.max(1, spec.categories.length)))
  return mount(
    container,
    (width, c) => {
      const room = Math.min(labelWidth(spec.categories, 40), Math.round(width * 0.42))
      return {
        width,
        height: spec.height ?? (across ? 40 + spec.categories.length * (width < 500 ? 17 : 22) * Math.max(1, n * 0.8) : width < 500 ? 180 : 260),
        scales: {
          x: { time: false, range: () => [-0.5, spec.categories.length - 0.5], ...(across ? { ori: 1, dir: -1 } : {}) },
          y: { ...(across ? { ori: 0, dir: 1 } : {}), range: (/** @type {any} */ _u, /** @type {number} */ min, /** @type {number} */ max) => [Math.min(0, min * 1.1), Math.max(0, max * 1.1) || 1] }
        },
        cursor: { drag: { x: false, y: false } },
        legend: { show: n > 1 },
        series: [
          { label: spec.categoryLabel ?? "Category", value: (/** @type {any} */ _u, /** @type {number | null} */ i) => spec.categories[Math.round(i ?? 0)] ?? "" },
          ...spec.series.map((s, i) => ({
            label: s.label,
            stroke: c.series[i % c.series.length],
            fill: c.series[i % c.series.length],
            width: 0,
            // Before any hover, the first category's values (the one the legend names).
            value: (/** @type {any} */ _u, /** @type {number | null} */ v, /** @type {number} */ _s, /** @type {number | null} */ idx) => {
              const shown = idx === null ? s.values[0] : v
              return typeof shown === "number" ? format(shown) : "unknown"
            },
            paths: bars({
              disp: {
                x0: { unit: 1, values: (/** @type {any} */ u) => xs.map((x) => x - groupOf(u) / 2 + i * (groupOf(u) / n)) },
                size: { unit: 1, values: (/** @type {any} */ u) => xs.map(() => groupOf(u) / n) },
                ...(spec.signed ? { fill: { unit: 3, values: () => s.values.map((v) => (typeof v === "number" && v < 0 ? c.down : c.series[i % c.series.length])) } } : {})
              }
            }),
            points: { show: false }
          }))
        ],
        axes: [
          {
            ...axis(c, across ? room + 14 : 50),
            ...(across ? { side: 3 } : {}),
            grid: { show: false },
            splits: () => xs,
            values: (/** @type {any} */ u, /** @type {number[]} */ splits) => {
              if (across) return splits.map((i) => fit(spec.categories[i] ?? "", room))
              // Upright bars too narrow for their names (nine months on a phone) name every second or third one.
              const slot = u.bbox.width / devicePixelRatio / Math.max(1, spec.categories.length)
              const every = slot > 0 ? Math.max(1, Math.ceil((labelWidth(spec.categories, 0) + 8) / slot)) : 1
              return splits.map((i) => (i % every === 0 ? spec.categories[i] ?? "" : ""))
            }
          },
          { ...axis(c, across ? 40 : 70), ...(across ? { side: 2, space: 80 } : {}), values: (/** @type {any} */ _u, /** @type {number[]} */ splits) => splits.map(format) }
        ]
      }
    },
    [xs, ...spec.series.map((s) => s.values)],
    spec
  )
}

const DAY = 86_400
/** Tick steps of whole days, weeks, months and years: a daily series has no hours to mark. */
const DAY_STEPS = [DAY, 2 * DAY, 7 * DAY, 14 * DAY, 30 * DAY, 91 * DAY, 182 * DAY, 365 * DAY, 730 * DAY, 1825 * DAY]
const monthDay = { format: (/** @type {Date} */ d) => `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}` }
const monthYear = { format: (/** @type {Date} */ d) => `${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}` }
/** @param {any} _u @param {number[]} splits @param {number} _axis @param {number} _space @param {number} step */
const dateLabels = (_u, splits, _axis, _space, step) =>
  splits.map((s) => (step >= 30 * DAY ? monthYear : monthDay).format(new Date(s * 1000)))

/** The share of each category's slot its bars take together. */
const GROUP = 0.8

/** Percent labels for charts: "+12.5%". @type {Format} */
export const percentFormat = (v) => `${v > 0 ? "+" : v < 0 ? "−" : ""}${formatNumber(Math.abs(v), Math.abs(v) >= 100 ? 0 : 1)}%`
/** Plain shares: "12.5%". @type {Format} */
export const shareFormat = (v) => `${formatNumber(v, 1)}%`
/** Rupees for legends: "Rs 12.5 lakh". @type {Format} */
export const rupeeFormat = (v) => `Rs ${plain(v)}`
