// The house's import rules, checked on the sources (docs/architecture.md, "The rooms"): no module
// imports itself through others, and the server's rooms (its top-level folders) form no cycle, so
// each has a place in one order from low (db, config) to high (http, cli). Type-only and late
// (`await import`) imports count: a cycle of types still ties two rooms together.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const SCANNED = ["server", "common", "app"];
const SKIPPED = /(^|\/)(node_modules|generated|generated-pg)(\/|$)/;
const IMPORT = /(?:^\s*(?:import|export)\b[^;'"]*?from\s*|\bimport\s*\(\s*|^\s*import\s+)["']([^"']+)["']/gm;

function sources(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = path.posix.join(dir, entry.name);
      if (SKIPPED.test(rel)) continue;
      if (entry.isDirectory()) walk(rel);
      else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) out.push(rel);
    }
  };
  for (const dir of SCANNED) walk(dir);
  return out;
}

/** The scanned file an import names, if it names one of ours. */
function resolve(from: string, spec: string, files: ReadonlySet<string>): string | undefined {
  let base: string;
  if (spec.startsWith("@/")) base = spec.slice(2);
  else if (spec.startsWith(".")) base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  else return undefined;
  return [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`].find((f) => files.has(f));
}

function importGraph(): Map<string, Set<string>> {
  const files = sources();
  const known = new Set(files);
  const graph = new Map<string, Set<string>>();
  for (const file of files) {
    const text = fs.readFileSync(path.join(ROOT, file), "utf8");
    const targets = new Set<string>();
    for (const match of text.matchAll(IMPORT)) {
      const target = resolve(file, match[1]!, known);
      if (target && target !== file) targets.add(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** Strongly connected components with more than one member (Tarjan): each one is a cycle. */
function cycles(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

/** A server file's room: its first folder under server/ ("(top)" for runtime.ts and its like). */
const roomOf = (file: string) => {
  const parts = file.split("/");
  return parts.length > 2 ? parts[1]! : "(top)";
};

describe("the import rules", () => {
  const graph = importGraph();

  it("finds the imports it checks", () => {
    expect(graph.size).toBeGreaterThan(300);
    expect(graph.get("server/runtime.ts")?.size).toBeGreaterThan(5);
  });

  it("no module imports itself through others", () => {
    expect(cycles(graph)).toEqual([]);
  });

  it("the server's rooms form no cycle", () => {
    const rooms = new Map<string, Set<string>>();
    const why = new Map<string, string>();
    for (const [file, targets] of graph) {
      if (!file.startsWith("server/")) continue;
      for (const target of targets) {
        if (!target.startsWith("server/") || roomOf(target) === roomOf(file)) continue;
        const edge = `${roomOf(file)} -> ${roomOf(target)}`;
        if (!rooms.has(roomOf(file))) rooms.set(roomOf(file), new Set());
        rooms.get(roomOf(file))!.add(roomOf(target));
        if (!why.has(edge)) why.set(edge, `${file} imports ${target}`);
      }
    }
    const found = cycles(rooms).map((members) =>
      [...why]
        .filter(([edge]) => members.includes(edge.split(" -> ")[0]!) && members.includes(edge.split(" -> ")[1]!))
        .map(([, file]) => file),
    );
    expect(found).toEqual([]);
  });

  it("a cycle is found when there is one (the check can fail)", () => {
    const graph = new Map([
      ["a", new Set(["b"])],
      ["b", new Set(["c"])],
      ["c", new Set(["a"])],
      ["d", new Set(["a"])],
    ]);
    expect(cycles(graph)).toEqual([["a", "b", "c"]]);
  });
});
