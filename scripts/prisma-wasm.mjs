// Prisma's query compiler in the compiled server, loaded from a .wasm file instead of a base64 string.
//
// The generated client imports `@prisma/client/runtime/<name>.wasm-base64.mjs`, a 2.2 MB module whose
// only export is the compiler as base64, and decodes it once. V8 keeps that module's source and its
// string for the life of the process: ~4.4 MB of a live server's heap (docs/performance/memory.md,
// "Round 9: memory"). The bundle instead decodes it at build time into dist/server/prisma-wasm/ and
// compiles the module from those bytes, which are garbage once compiled. Nothing is downloaded: the
// bytes come from the installed @prisma/client.
//
// If a Prisma upgrade changes the generated loader, the build fails and says so (never a silent
// fallback to the string, nor a server that cannot load its compiler). Plain Node, no TypeScript.
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";

/** Where the .wasm files go, beside the bundle's chunks (which load them relative to themselves). */
export const WASM_DIR = "prisma-wasm";

// The loader exactly as Prisma 7.x generates it in internal/class.ts.
const GENERATED_LOADER =
  /getQueryCompilerWasmModule: async \(\) => \{\s*const \{ wasm \} = await import\("@prisma\/client\/runtime\/(query_compiler_[a-z]+_bg\.[a-z]+)\.wasm-base64\.mjs"\)\s*return await decodeBase64AsWasm\(wasm\)\s*\},/g;

export class GeneratedClientChanged extends Error {}

/**
 * The generated client's source with its base64 loader replaced by one that compiles
 * `<WASM_DIR>/<name>.wasm` next to the chunk that runs it, and the runtime module names it needs.
 * Throws GeneratedClientChanged unless the loader is there exactly once.
 */
export function replaceWasmLoader(source, file = "the generated client") {
  const names = [];
  const replaced = source.replace(GENERATED_LOADER, (_match, name) => {
    names.push(name);
    return (
      "getQueryCompilerWasmModule: async () => {\n" +
      '    const { readFileSync } = await import("node:fs")\n' +
      `    return new WebAssembly.Module(readFileSync(new URL(${JSON.stringify(`./${WASM_DIR}/${name}.wasm`)}, import.meta.url)))\n` +
      "  },"
    );
  });
  if (names.length !== 1) {
    throw new GeneratedClientChanged(
      `${file}: Prisma's query compiler loader is not the one scripts/prisma-wasm.mjs replaces (found ${names.length}). ` +
        "A Prisma upgrade changed the generated client: update GENERATED_LOADER there.",
    );
  }
  return { contents: replaced, name: names[0] };
}

/** The compiler's bytes, decoded from the installed runtime's base64 module. */
export async function compilerBytes(name, root) {
  const resolve = createRequire(path.join(root, "package.json")).resolve;
  const { wasm } = await import(pathToFileURL(resolve(`@prisma/client/runtime/${name}.wasm-base64.mjs`)).href);
  return Buffer.from(wasm, "base64");
}

/** The esbuild plugin: replaces the loader in both generated clients and records which .wasm each needs. */
export function prismaWasmFromFile(needed) {
  return {
    name: "prisma-wasm-from-file",
    setup(build) {
      build.onLoad({ filter: /server[\\/]db[\\/]generated(-pg)?[\\/]internal[\\/]class\.ts$/ }, (args) => {
        const { contents, name } = replaceWasmLoader(fs.readFileSync(args.path, "utf8"), args.path);
        needed.add(name);
        return { contents, loader: "ts" };
      });
    },
  };
}
