// The body of a mirror worker: one TerminalMirror, parsed on its own thread so that the server's event
// loop (socket.io, the API, other sessions) never waits for xterm's parser. See mirror-thread.ts.
import os from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import type { MirrorReply, MirrorRequest, MirrorWorkerData } from "./mirror-protocol.ts";
import { TerminalMirror } from "./terminal-mirror.ts";
import { threadMemory } from "./thread-memory.ts";

const port = parentPort;
if (!port) throw new Error("mirror-worker.ts runs as a worker thread (see mirror-thread.ts)");
const options = workerData as MirrorWorkerData;

if (options.nice !== undefined) {
  try {
    os.setPriority(options.nice); // pid 0: this thread only, on Linux
  } catch {
    // Not permitted here: parse at the normal priority.
  }
}

const reply = (message: MirrorReply) => port.postMessage(message);
const mirror = new TerminalMirror(options.cols, options.rows, {
  scrollback: options.scrollback,
  colours: options.colours,
  onReply: (data) => reply({ type: "reply", data }),
});

// Parsed writes are reported in batches (xterm parses many small writes in one slice), and always
// before a snapshot reply, so the session learns of them in the order they happened.
let parsedWrites = 0;
let reportScheduled = false;
function reportParsed(): void {
  reportScheduled = false;
  if (parsedWrites === 0) return;
  reply({ type: "parsed", writes: parsedWrites });
  parsedWrites = 0;
}
function wroteOne(): void {
  parsedWrites++;
  if (reportScheduled) return;
  reportScheduled = true;
  setImmediate(reportParsed);
}

/** Replies to a read once it is taken; parsed writes before it are reported first. */
function answer<T>(id: number, read: Promise<T>, toReply: (value: T) => MirrorReply): void {
  read.then(
    (value) => {
      reportParsed();
      reply(toReply(value));
    },
    (error: unknown) => {
      reportParsed();
      reply({ type: "read-failed", id, message: String(error) });
    },
  );
}

port.on("message", (request: MirrorRequest) => {
  switch (request.type) {
    case "write":
      mirror.write(request.data, wroteOne);
      return;
    case "resize":
      mirror.resize(request.cols, request.rows);
      return;
    case "colours":
      mirror.setColours(request.colours);
      return;
    case "snapshot":
      answer(request.id, mirror.snapshot({ excludeModes: request.excludeModes }), (snapshot) => ({
        type: "snapshot",
        id: request.id,
        snapshot,
      }));
      return;
    case "preview":
      answer(request.id, mirror.preview(), (preview) => ({ type: "preview", id: request.id, preview }));
      return;
    case "memory":
      reply({ type: "memory", id: request.id, memory: threadMemory() });
      return;
  }
});
