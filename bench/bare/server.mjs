#!/usr/bin/env node
// The bare pipeline, the practical limit the benchmark compares against: node-pty -> one plain
// WebSocket (the `ws` package) -> xterm.js in a static page. No framework, no mirror, no numbering.
// Flow control is the watermark scheme of xterm.js's flow-control guide: the page acks what xterm
// has parsed, the server pauses the pty above HIGH_WATERMARK_CHARS and resumes below LOW.
//
//   node bench/bare/server.mjs --port 0 --command /bin/bash --arg --rcfile --arg FILE --arg -i
// Binds 127.0.0.1 only and prints "bare running at http://127.0.0.1:PORT/".
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { createRequire } from "node:module";
import pty from "node-pty";
import { WebSocketServer } from "ws";

const here = import.meta.dirname;
const requireFromRoot = createRequire(path.join(here, "..", "..", "package.json"));

/** Chars sent and not yet acknowledged above which the pty is paused (the guide's high watermark). */
const HIGH_WATERMARK_CHARS = 500_000;
/** Chars unacknowledged below which a paused pty resumes. */
const LOW_WATERMARK_CHARS = 100_000;

const argv = process.argv.slice(2);
const option = (name) => {
  const i = argv.indexOf(`--${name}`);
  return i === -1 ? undefined : argv[i + 1];
};
const command = option("command") ?? "/bin/bash";
const args = argv.flatMap((a, i) => (a === "--arg" && argv[i + 1] !== undefined ? [argv[i + 1]] : []));
const port = Number(option("port") ?? 0);

const files = {
  "/": [path.join(here, "index.html"), "text/html; charset=utf-8"],
  "/xterm.js": [requireFromRoot.resolve("@xterm/xterm/lib/xterm.js"), "text/javascript"],
  "/xterm.css": [requireFromRoot.resolve("@xterm/xterm/css/xterm.css"), "text/css"],
  "/addon-fit.js": [requireFromRoot.resolve("@xterm/addon-fit/lib/addon-fit.js"), "text/javascript"],
};

const server = http.createServer((req, res) => {
  const file = files[new URL(req.url ?? "/", "http://x").pathname];
  if (!file) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { "content-type": file[1] });
  fs.createReadStream(file[0]).pipe(res);
});

const wss = new WebSocketServer({ server, path: "/pty", perMessageDeflate: false });
wss.on("connection", (ws, req) => {
  const query = new URL(req.url ?? "/", "http://x").searchParams;
  const term = pty.spawn(command, args, {
    name: "xterm-256color",
    cols: Number(query.get("cols")) || 80,
    rows: Number(query.get("rows")) || 24,
    cwd: process.cwd(),
    env: process.env,
  });
  let unacked = 0;
  let paused = false;
  term.onData((data) => {
    ws.send(data);
    unacked += data.length;
    if (!paused && unacked > HIGH_WATERMARK_CHARS) {
      paused = true;
      term.pause();
    }
  });
  term.onExit(() => ws.close());
  // Messages from the page: "i" + input, "a" + chars parsed, "r" + cols,rows.
  ws.on("message", (raw) => {
    const message = raw.toString();
    const body = message.slice(1);
    if (message[0] === "i") term.write(body);
    else if (message[0] === "a") {
      unacked = Math.max(0, unacked - Number(body));
      if (paused && unacked < LOW_WATERMARK_CHARS) {
        paused = false;
        term.resume();
      }
    } else if (message[0] === "r") {
      const [cols, rows] = body.split(",").map(Number);
      if (cols > 0 && rows > 0) term.resize(cols, rows);
    }
  });
  ws.on("close", () => term.kill());
});

server.listen(port, "127.0.0.1", () => {
  const address = server.address();
  console.log(`bare running at http://127.0.0.1:${address.port}/`);
});
process.on("SIGTERM", () => {
  for (const client of wss.clients) client.terminate();
  server.close(() => process.exit(0));
});
