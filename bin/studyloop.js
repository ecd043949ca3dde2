#!/usr/bin/env node
// The `studyloop` command. It runs the TypeScript sources through tsx in this same process, so the
// PID a learner or a test holds is the server's own.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../server/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
