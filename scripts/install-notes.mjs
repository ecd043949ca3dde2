#!/usr/bin/env node
// The last lines of `npm install` (package.json's postinstall): what to do next, and why npm's one
// remaining warning on Node 20 can be ignored. Plain Node: it may only use what Node ships.
const [major] = process.versions.node.split(".").map(Number);
const lines = ["StudyLoop is installed. Start it with: npm run web   (the first start builds the pages, about a minute)"];
if (major < 22) {
  lines.push(
    `On Node ${major}, npm warned "EBADENGINE ... @prisma/streams-local" above: that package serves only \`prisma dev\`,`,
    "which StudyLoop never runs, so the warning is harmless (README, Prerequisites).",
  );
}
console.log(lines.join("\n"));
