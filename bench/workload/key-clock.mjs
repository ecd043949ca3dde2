#!/usr/bin/env node
// The agent's side of "typing reaches the agent": in raw mode, appends each chunk of input as it
// arrives to FILE, one JSON line {"at": epoch ms, "data": the chunk}; prints nothing (the reattach
// bench's restore check reads the screen's last lines). Ctrl-] ends it.
//
//   node key-clock.mjs FILE
import fs from "node:fs";

const file = process.argv[2];
if (!file) throw new Error("usage: key-clock.mjs FILE");
fs.writeFileSync(file, "");
process.stdin.setRawMode(true);
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  const end = chunk.indexOf("\x1d");
  const data = end === -1 ? chunk : chunk.slice(0, end);
  if (data) fs.appendFileSync(file, `${JSON.stringify({ at: Date.now(), data })}\n`);
  if (end !== -1) process.exit(0);
});
