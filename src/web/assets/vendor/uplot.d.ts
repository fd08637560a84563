// Types of /assets/vendor/uplot.js (served from the uplot package, src/web/Assets.ts): uPlot's own.
import uPlot from "uplot"
export default uPlot
