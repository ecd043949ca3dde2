#!/usr/bin/env node
// The `studyloop` command. It runs the server compiled to plain JavaScript (dist/server, made by
// `npm run build`, rebuilt here first when missing or older than its sources: scripts/server-bundle.mjs);
// `studyloop web --dev` runs the TypeScript sources through tsx instead, for hot reload. Either way in
// this same process, so the PID a learner or a test holds is the server's own.
import { holdYoungGeneration } from "./young-generation.js";

holdYoungGeneration();
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
process.exitCode = await main(argv);
