// Whether `npm install` finished: checked by bin/studyloop.js before anything else loads (esbuild,
// Next, Prisma), so a start after an unfinished install says so in one sentence instead of a page of
// esbuild errors and a stack trace. Only file checks (a few stat calls): no module is loaded.
// scripts/postinstall.mjs asks the same question as its last step. Plain Node: it runs before
// anything is compiled.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** Written by scripts/postinstall.mjs when every step of the install succeeded. */
export const INSTALL_RECORD = path.join("node_modules", ".studyloop", "install.json");

/**
 * What `npm install` makes, each one a file (any of `paths`) and how the sentence names it when it is
 * missing. A part added to the install (a new native helper) is added here.
 */
export const INSTALL_PRODUCTS = [
  { what: "the packages (node_modules)", paths: ["node_modules/next/package.json", "node_modules/esbuild/package.json"] },
  {
    what: "node-pty is not built",
    // Built here, or the prebuilt one node-pty's own package carries for this platform (macOS, Windows).
    paths: ["node_modules/node-pty/build/Release/pty.node", `node_modules/node-pty/prebuilds/${process.platform}-${process.arch}/pty.node`],
  },
  { what: "better-sqlite3 is not built", paths: ["node_modules/better-sqlite3/build/Release/better_sqlite3.node"] },
  { what: "StudyLoop's memory addon (native/malloc-trim) is not built", paths: ["native/malloc-trim/build/Release/malloc_trim.node"] },
  { what: "the Prisma client is not generated", paths: ["server/db/generated/client.ts"] },
  { what: "the PostgreSQL Prisma client is not generated", paths: ["server/db/generated-pg/client.ts"] },
];

/**
 * The sentence a start says when the install is not finished, or null. `exists` answers for a path
 * relative to the project; `record` is the install record (null without one: an install made before
 * the record existed counts by its files alone); `abi` this Node's ABI (process.versions.modules);
 * `stillLoads` is asked only when the record names another Node (modules rebuilt since, `npm rebuild`,
 * still load). Pure but for what `exists` and `stillLoads` do.
 */
export function unfinishedInstall(exists, record, abi, nodeVersion, stillLoads = () => false) {
  const missing = INSTALL_PRODUCTS.filter((p) => !p.paths.some(exists)).map((p) => p.what);
  if (missing.length > 0) {
    const why = missing[0] === INSTALL_PRODUCTS[0].what ? "node_modules is missing or incomplete" : missing.join("; ");
    return `The install did not finish (${why}): run npm install.`;
  }
  if (record && record.abi !== abi && !stillLoads()) {
    return `The install was made for Node ${record.node} and this is Node ${nodeVersion}, whose native modules differ: run npm install again.`;
  }
  return null;
}

/** The install record, or null when there is none or it cannot be read. */
export function readInstallRecord(root = ROOT) {
  try {
    const record = JSON.parse(fs.readFileSync(path.join(root, INSTALL_RECORD), "utf8"));
    return typeof record?.abi === "string" && typeof record?.node === "string" ? record : null;
  } catch {
    return null;
  }
}

/** Whether the native modules load in this Node (a child process: a module that fails to load cannot be unloaded). */
function nativeModulesLoad(root) {
  const probe = 'require("node-pty"); new (require("better-sqlite3"))(":memory:").close()';
  return spawnSync(process.execPath, ["-e", probe], { cwd: root, stdio: "ignore" }).status === 0;
}

/** unfinishedInstall for the project at `root`, on this Node. */
export function checkInstall(root = ROOT) {
  return unfinishedInstall(
    (p) => fs.existsSync(path.join(root, p)),
    readInstallRecord(root),
    process.versions.modules,
    process.version,
    () => nativeModulesLoad(root),
  );
}
