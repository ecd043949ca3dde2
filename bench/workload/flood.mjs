#!/usr/bin/env node
// Writes a deterministic stream of mixed ANSI output (SGR colours and attributes, cursor moves,
// long wrapping lines) to its terminal, then an OSC 7777 "done" mark the page's probe records.
//
//   node flood.mjs --bytes N [--stamp FILE]   N bytes of output; FILE gets the epoch ms of the first byte
//   node flood.mjs --lines N                  N numbered lines (for the scrollback of the reattach test)
//
// Output goes through process.stdout with backpressure, in 64 KB writes, so the program runs at the
// pace the terminal's reader allows.
import fs from "node:fs";
import { pathToFileURL } from "node:url";

const ESC = "\x1b[";
const RESET = `${ESC}0m`;
const WRITE_CHARS = 64 * 1024;

function arg(name) {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? undefined : process.argv[i + 1];
}

/** Line i: colours, a background every 3rd line, cursor save/move/restore, bold, underline, and every 7th line a long wrapping one. */
export function floodLine(i) {
  const colour = `${ESC}${30 + (i % 8)}m`;
  const bg = i % 3 === 0 ? `${ESC}4${(i + 4) % 8}m` : "";
  const moves = `${ESC}s${ESC}60G#${ESC}u${ESC}2C${ESC}1D`;
  const long = i % 7 === 0 ? ` ${"long-".repeat(40)}end` : "";
  const c256 = `${ESC}38;5;${i % 256}m`;
  return `${colour}${bg}flood ${i}${RESET}${moves} ${ESC}1mbold${RESET} ${ESC}4munder${RESET} ${c256}256-colour${RESET}${long}\n`;
}

function write(text) {
  return new Promise((resolve) => {
    if (process.stdout.write(text)) resolve();
    else process.stdout.once("drain", resolve);
  });
}

async function floodBytes(total, stampFile) {
  // One block of lines, repeated: generating is not what is measured.
  let block = "";
  for (let i = 1; block.length < WRITE_CHARS; i++) block += floodLine(i);
  block = block.slice(0, WRITE_CHARS);
  // Cut at a line end so every write leaves the parser in its ground state.
  block = block.slice(0, block.lastIndexOf("\n") + 1);
  let written = 0;
  const start = Date.now();
  if (stampFile) fs.writeFileSync(stampFile, String(start));
  // The page's probe notes how long its parser had waited for data until here (bench/lib/probe.js).
  await write("\x1b]7777;start\x07");
  while (written < total) {
    const piece = total - written >= block.length ? block : block.slice(0, total - written);
    await write(piece);
    written += piece.length;
  }
  await write(`${RESET}\n\x1b]7777;done\x07`);
}

async function floodLines(count) {
  let batch = "";
  for (let i = 1; i <= count; i++) {
    batch += `${ESC}${31 + (i % 7)}mscroll ${i}${RESET} ${"x".repeat(i % 60)}\n`;
    if (batch.length >= WRITE_CHARS) {
      await write(batch);
      batch = "";
    }
  }
  await write(`${batch}\x1b]7777;lines\x07`);
}

// Run as a program (bench/index-stall.ts imports floodLine only).
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const bytes = arg("bytes");
  const lines = arg("lines");
  if (bytes) await floodBytes(Number(bytes), arg("stamp"));
  else if (lines) await floodLines(Number(lines));
  else {
    process.stderr.write("usage: flood.mjs --bytes N [--stamp FILE] | --lines N\n");
    process.exitCode = 2;
  }
}
