import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { createRequire } from "node:module";
import { ENTRY, META, OUT_DIR, ROOT, bundleVerdict, ensureServerBundle, loadsWithRequire } from "../../scripts/server-bundle.mjs";
import { GeneratedClientChanged, WASM_DIR, replaceWasmLoader } from "../../scripts/prisma-wasm.mjs";

describe("bundleVerdict", () => {
  const mtimes: Record<string, number> = { "server/a.ts": 100, "server/b.ts": 150 };
  const mtimeOf = (input: string) => mtimes[input];
  it.each([
    ["no record of a build", undefined, true, "missing"],
    ["a record but no entry file", { builtAt: 200, inputs: ["server/a.ts"] }, false, "missing"],
    ["a record that is not one", { inputs: "server/a.ts" }, true, "missing"],
    ["built after every input", { builtAt: 200, inputs: ["server/a.ts", "server/b.ts"] }, true, "fresh"],
    ["an input changed during or after the build", { builtAt: 120, inputs: ["server/a.ts", "server/b.ts"] }, true, "stale"],
    ["an input is gone (renamed, deleted)", { builtAt: 200, inputs: ["server/a.ts", "server/gone.ts"] }, true, "stale"],
  ])("%s: %s", (_name, meta, entryExists, verdict) => {
    expect(bundleVerdict(meta, entryExists, mtimeOf)).toBe(verdict);
  });
});

describe("loadsWithRequire", () => {
  const resolve = createRequire(path.join(ROOT, "package.json")).resolve;
  it.each([
    ["a .cjs entry for require (zod)", "zod", true],
    ["a .js entry in a package without a type (Next.js)", "next", true],
    ["a subpath of a CommonJS package (Prisma's runtime)", "@prisma/client/runtime/client", true],
    ['a .js entry in a "type": "module" package (the ACP SDK)', "@agentclientprotocol/sdk", false],
    ["a package that is not installed", "no-such-package-studyloop", false],
  ])("%s", (_name, specifier, verdict) => {
    expect(loadsWithRequire(specifier, resolve)).toBe(verdict);
  });
});

describe("the compiled server", () => {
  it("is what bin/studyloop.js runs: built from the sources it lists, with no TypeScript loader", async () => {
    const entry = await ensureServerBundle();
    expect(entry).toBe(ENTRY);
    const meta = JSON.parse(fs.readFileSync(META, "utf8")) as { inputs: string[] };
    expect(meta.inputs).toContain("server/cli/main.ts");
    expect(meta.inputs).toContain("server/http/studyloop-server.ts");
    expect(meta.inputs).toContain("server/transports/pty/mirror-worker.ts");
    expect(meta.inputs.some((input) => input.includes("node_modules"))).toBe(false);
    // The mirror's worker is built beside the entry, so no compiler runs when a session starts.
    expect(fs.existsSync(path.join(path.dirname(ENTRY), "mirror-worker.cjs"))).toBe(true);

    // Every module Node loads, CommonJS or ESM, is written down by a loader hook; no TypeScript loader may be among them.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-bundle-"));
    const list = path.join(dir, "loaded.txt");
    const hooks = path.join(dir, "hooks.mjs");
    fs.writeFileSync(
      hooks,
      `import fs from "node:fs";
       export async function load(url, context, next) { fs.appendFileSync(${JSON.stringify(list)}, url + "\\n"); return next(url, context); }`,
    );
    const register = `import { register } from "node:module"; register(${JSON.stringify(pathToFileURL(hooks).href)});`;
    const result = spawnSync(
      process.execPath,
      ["--import", `data:text/javascript,${encodeURIComponent(register)}`, path.join(ROOT, "bin", "studyloop.js"), "--help"],
      { cwd: ROOT, encoding: "utf8", timeout: 60_000 },
    );
    expect(result.stdout).toContain("Usage: studyloop <command>");
    const loaded = fs.readFileSync(list, "utf8").split("\n").filter(Boolean);
    fs.rmSync(dir, { recursive: true, force: true });
    expect(loaded).toContain(pathToFileURL(ENTRY).href);
    expect(loaded.filter((url) => /\/node_modules\/(tsx|typescript|esbuild)\/|\.tsx?$/.test(url))).toEqual([]);
    // CommonJS packages are required, not imported (no export scan, no translation at every start).
    const imported = fs
      .readdirSync(OUT_DIR)
      .filter((file) => file.endsWith(".js"))
      .flatMap((file) =>
        [...fs.readFileSync(path.join(OUT_DIR, file), "utf8").matchAll(/(?:from|import) "([^".][^"]*)";/g)].map((m) => m[1]!),
      )
      .filter((specifier) => !specifier.startsWith("node:"));
    expect([...new Set(imported)]).toEqual(["@agentclientprotocol/sdk"]);
  });
});

describe("Prisma's query compiler in the compiled server", () => {
  const generated = (dir: string) => fs.readFileSync(path.join(ROOT, "server", "db", dir, "internal", "class.ts"), "utf8");

  it.each([
    ["generated", "query_compiler_small_bg.sqlite"],
    ["generated-pg", "query_compiler_small_bg.postgresql"],
  ])("%s: the base64 loader is replaced by one reading %s.wasm", (dir, name) => {
    const { contents, name: found } = replaceWasmLoader(generated(dir));
    expect(found).toBe(name);
    expect(contents).not.toContain("wasm-base64");
    expect(contents).toContain(`new URL("./${WASM_DIR}/${name}.wasm", import.meta.url)`);
  });

  it("fails the build, naming the fix, when a Prisma upgrade changes the generated loader", () => {
    const changed = generated("generated").replace("decodeBase64AsWasm(wasm)", "decodeBase64AsWasm(wasm, options)");
    expect(() => replaceWasmLoader(changed, "class.ts")).toThrow(GeneratedClientChanged);
    expect(() => replaceWasmLoader(changed, "class.ts")).toThrow(/class.ts: .*update GENERATED_LOADER/);
  });

  it("the bundle holds no base64 compiler and ships both compilers as valid WebAssembly", async () => {
    await ensureServerBundle();
    const chunks = fs.readdirSync(OUT_DIR).filter((file) => file.endsWith(".js"));
    expect(chunks.filter((file) => fs.readFileSync(path.join(OUT_DIR, file), "utf8").includes("wasm-base64"))).toEqual([]);
    const wasm = fs.readdirSync(path.join(OUT_DIR, WASM_DIR)).sort();
    expect(wasm).toEqual(["query_compiler_small_bg.postgresql.wasm", "query_compiler_small_bg.sqlite.wasm"]);
    for (const file of wasm) expect(WebAssembly.validate(fs.readFileSync(path.join(OUT_DIR, WASM_DIR, file))), file).toBe(true);
  });
});
