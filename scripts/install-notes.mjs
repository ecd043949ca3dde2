// The last lines of `npm install` (scripts/postinstall.mjs): what to do next, and why npm's one
// remaining warning on Node 20 can be ignored. Pure text; plain Node.

/** What the install says when it is done, `elapsed` the time StudyLoop's own steps took. */
export function installNotes(nodeMajor, elapsed) {
  const lines = [
    `StudyLoop is installed (its own steps took ${elapsed}). Start it with: npm run web`,
    "  The first start builds the pages once (next build): it says when it starts and how long it took, with a line every 30 s.",
  ];
  if (nodeMajor < 22) {
    lines.push(
      `On Node ${nodeMajor}, npm warned "EBADENGINE ... @prisma/streams-local" above: that package serves only \`prisma dev\`,`,
      "which StudyLoop never runs, so the warning is harmless (README, Prerequisites).",
    );
  }
  return lines.join("\n");
}
