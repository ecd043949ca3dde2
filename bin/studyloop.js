#!/usr/bin/env -S sh -c '[ "${MALLOC_ARENA_MAX+1}" ]||export MALLOC_ARENA_MAX=2 STUDYLOOP_ARENAS=2;exec node "$0" "$@"'
// The `studyloop` command. It runs the server compiled to plain JavaScript (dist/server, made by
// `npm run build`, rebuilt here first when missing or older than its sources: scripts/server-bundle.mjs);
// `studyloop web --dev` runs the TypeScript sources through tsx instead, for hot reload. Either way in
// this same process, so the PID a learner or a test holds is the server's own. The first line caps
// glibc's malloc arenas when `studyloop` runs as a command (bin/start-settings.js). An install that did
// not finish is said in one sentence before anything else loads (bin/install-check.js).
import { forgetStartSettings } from "./start-settings.js";
import { holdYoungGeneration } from "./young-generation.js";
import { checkInstall } from "./install-check.js";

forgetStartSettings();
holdYoungGeneration();
const unfinished = checkInstall();
if (unfinished) {
  process.stderr.write(`studyloop: ${unfinished}\n`);
  process.exit(1);
}
const argv = process.argv.slice(2);
let main;
if (argv[0] === "web" && argv.includes("--dev")) {
  const { register } = await import("tsx/esm/api");
  register();
  ({ main } = await import("../server/cli/main.ts"));
} else {
  const { ensureServerBundle } = await import("../scripts/server-bundle.mjs");
  ({ main } = await import(await ensureServerBundle()));
}
const code = await main(argv);
process.exitCode = code;
// The server's command returns once it has stopped, or could not start: it exits then, whatever a
// library may still hold open, so a supervisor sees a server that cannot serve fail (issue 39).
if (argv[0] === "web") process.exit(code);
