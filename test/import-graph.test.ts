/**
 * The import graph of src/ and domain/, read with the TypeScript compiler's parser (every `import … from`,
 * `export … from`, `import("…")` type and dynamic import with a literal path), and three rules over it:
 * 1. no cycle (a strongly connected component of more than one file, or a file importing itself);
 * 2. domain/ imports nothing from src/ (the pure rules do no I/O);
 * 3. infrastructure (src/db, src/http, src/observability, src/paging, src/config, src/system, src/sources)
 *    imports no feature (src/market, src/ledger, src/mcp, src/web, src/ingest), except in the composition roots
 *    (src/Layers.ts, which puts the layers together, and the route table src/http/Api.ts).
 * A failure prints each cycle as a path of files, and each arrow as `from → to`.
 */
import { assert, describe, it } from "@effect/vitest"
import * as fs from "node:fs"
import * as path from "node:path"
import ts from "typescript"

const root = path.resolve(import.meta.dirname, "..")

const INFRASTRUCTURE = [
  "src/db",
  "src/http",
  "src/observability",
  "src/paging",
  "src/config",
  "src/system",
  "src/sources"
]
const FEATURES = ["src/market", "src/ledger", "src/mcp", "src/web", "src/ingest"]

/**
 * The files that compose a feature with others: they may import every feature. src/Layers.ts is the one place
 * layers are composed (it is outside infrastructure, so it is listed to say so); src/http/Api.ts, the route
 * table, is in infrastructure and adds every feature's `…Api` group, the one source of /openapi.json.
 */
const COMPOSITION_ROOTS = new Set([
  "src/Layers.ts", // every feature's services, routes and each command's process
  "src/http/Api.ts" // the route table: every feature's `…Api` group
])

/**
 * Arrows from infrastructure to a feature that can only be removed in a file another helper is rewriting right
 * now; the lead clears each after merging that work. Each entry is `from → to`.
 */
const KNOWN_ARROWS = new Set<string>([])

const inside = (file: string, folders: ReadonlyArray<string>) => folders.some((f) => file.startsWith(f + "/"))

const sourceFiles = (dir: string): Array<string> =>
  fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`
    if (entry.isDirectory()) return sourceFiles(rel)
    return /\.(ts|tsx|mts)$/.test(entry.name) ? [rel] : []
  })

/** Every module path a file names: static imports and re-exports, `import("…")` types and dynamic imports. */
const specifiersOf = (file: string): Array<string> => {
  const text = fs.readFileSync(path.join(root, file), "utf8")
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const found: Array<string> = []
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier)) found.push(node.moduleSpecifier.text)
    } else if (ts.isImportTypeNode(node)) {
      const arg = node.argument
      if (ts.isLiteralTypeNode(arg) && ts.isStringLiteral(arg.literal)) found.push(arg.literal.text)
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const arg = node.arguments[0]
      if (arg !== undefined && ts.isStringLiteralLike(arg)) found.push(arg.text)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

/** A relative specifier resolved to a project file (`.js` written for `.ts` is accepted); a package is skipped. */
const resolve = (from: string, spec: string): string | undefined => {
  if (!spec.startsWith(".")) return undefined
  const target = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec))
  const candidates = [target, target.replace(/\.js$/, ".ts"), `${target}.ts`, `${target}/index.ts`]
  const hit = candidates.find((c) => fs.existsSync(path.join(root, c)) && fs.statSync(path.join(root, c)).isFile())
  assert.isDefined(hit, `${from} imports ${spec}, which names no file`)
  return hit
}

const buildGraph = (): Map<string, Set<string>> => {
  const graph = new Map<string, Set<string>>()
  for (const file of [...sourceFiles("src"), ...sourceFiles("domain")]) {
    const targets = new Set<string>()
    for (const spec of specifiersOf(file)) {
      const target = resolve(file, spec)
      if (target !== undefined) targets.add(target)
    }
    graph.set(file, targets)
  }
  return graph
}

/** Tarjan's strongly connected components, iterative-free for this graph's depth (a few hundred files). */
const components = (graph: Map<string, Set<string>>): Array<Array<string>> => {
  let counter = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: Array<string> = []
  const onStack = new Set<string>()
  const found: Array<Array<string>> = []
  const connect = (v: string): void => {
    index.set(v, counter)
    low.set(v, counter)
    counter++
    stack.push(v)
    onStack.add(v)
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!))
    }
    if (low.get(v) === index.get(v)) {
      const component: Array<string> = []
      let w: string
      do {
        w = stack.pop()!
        onStack.delete(w)
        component.push(w)
      } while (w !== v)
      if (component.length > 1 || graph.get(v)?.has(v)) found.push(component.sort())
    }
  }
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) connect(v)
  return found
}

/** One cycle through a component's first file, found by a breadth-first walk inside the component. */
const cycleIn = (graph: Map<string, Set<string>>, component: ReadonlyArray<string>): string => {
  const members = new Set(component)
  const start = component[0]!
  const previous = new Map<string, string>()
  const queue = [start]
  while (queue.length > 0) {
    const v = queue.shift()!
    for (const w of graph.get(v) ?? []) {
      if (!members.has(w)) continue
      if (w === start) {
        const pathBack = [v]
        while (pathBack[0] !== start) pathBack.unshift(previous.get(pathBack[0]!)!)
        return [...pathBack, start].join(" → ")
      }
      if (!previous.has(w) && w !== start) {
        previous.set(w, v)
        queue.push(w)
      }
    }
  }
  return component.join(", ")
}

const arrows = (graph: Map<string, Set<string>>, keep: (from: string, to: string) => boolean) =>
  [...graph].flatMap(([from, targets]) => [...targets].filter((to) => keep(from, to)).map((to) => `${from} → ${to}`))

describe("the import graph of src/ and domain/", () => {
  const graph = buildGraph()

  it("walks every file (a sanity floor: the tree has hundreds of modules and their imports)", () => {
    assert.isAbove(graph.size, 200)
    assert.isTrue(graph.get("src/Layers.ts")!.size > 50, "the composition root imports every layer")
  })

  it("has no cycle", () => {
    const cycles = components(graph).map((c) => cycleIn(graph, c))
    assert.deepStrictEqual(cycles, [], `import cycles:\n${cycles.join("\n")}`)
  })

  it("domain/ imports nothing from src/", () => {
    const found = arrows(graph, (from, to) => from.startsWith("domain/") && to.startsWith("src/"))
    assert.deepStrictEqual(found, [], `domain imports src:\n${found.join("\n")}`)
  })

  it("infrastructure imports no feature outside the composition roots", () => {
    const found = arrows(
      graph,
      (from, to) => inside(from, INFRASTRUCTURE) && inside(to, FEATURES) && !COMPOSITION_ROOTS.has(from)
    )
    const unexpected = found.filter((a) => !KNOWN_ARROWS.has(a))
    assert.deepStrictEqual(unexpected, [], `infrastructure → feature:\n${unexpected.join("\n")}`)
  })

  it("every known exception still exists (remove an entry once its arrow is gone)", () => {
    const stale = [...KNOWN_ARROWS].filter((a) => {
      const [from, to] = a.split(" → ")
      return !graph.get(from!)?.has(to!)
    })
    assert.deepStrictEqual(stale, [])
  })

  it("names composition roots that exist", () => {
    const missing = [...COMPOSITION_ROOTS].filter((f) => !graph.has(f))
    assert.deepStrictEqual(missing, [])
  })
})
