#!/usr/bin/env node
// What `npm install` is doing, said before the quiet minutes and after (package.json's preinstall
// and postinstall). Plain Node: it runs before any dependency is installed.
const [major] = process.versions.node.split(".").map(Number);
const when = process.argv[2];
if (when === "before") {
  console.log(
    [
      "StudyLoop: installing. npm compiles two native modules from source (node-pty for the terminal,",
      "better-sqlite3 for the database): expect 1 to 3 quiet minutes.",
      ...(major < 22
        ? [
            `On Node ${major}, npm warns "EBADENGINE ... @prisma/streams-local": that package serves \`prisma dev\`,`,
            "which StudyLoop never runs; the warning is harmless (README, Prerequisites).",
          ]
        : []),
    ].join("\n"),
  );
} else {
  console.log("StudyLoop is installed. Start it with: npm run web   (the first start builds the pages, about a minute)");
}
