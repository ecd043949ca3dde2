// Keys typed on a reloaded study page before its scripts run reach the agent from here, off the page's
// main thread. Round 8 gave the page's inline catcher a socket of its own: each of its handshake's
// steps waited behind the bundles' long tasks, so the keys arrived no sooner. A dedicated Worker's
// socket does not wait for the page: the catcher (app/study/early-catcher.ts) starts it from the
// HTML, maps each keydown and posts its bytes here; this attaches for input only (the server sends it
// nothing) and sends them. The console takes over on its own attach (app/study/early-handover.ts).
//
// Served as a script by the server itself (EARLY_WORKER_PATH, the CSP's `worker-src 'self'`): its
// own source, so it is self-contained plain JavaScript, nothing from outside its body. It speaks the
// few socket.io packets it needs as text: engine.io open `0`, ping `2` -> `3`; socket.io connect
// `40`, events `42<id>[...]` and their acks `43<id>[...]`.

/** Where the server serves the worker's script (a content hash in the query: cached for good). */
export const EARLY_WORKER_PATH = "/early-keys-worker.js";

/** The worker's name (`new Worker(url, { name })`), as JSON: where to connect, which session. */
export interface EarlyWorkerSettings {
  /** The page's socket.io endpoint, as a WebSocket URL. */
  readonly url: string;
  readonly sessionId: string;
}

/** Page -> worker. */
export type EarlyWorkerIn = { readonly type: "key"; readonly data: string } | { readonly type: "stop" };

/**
 * Worker -> page. `sent`: after each key it puts on its socket, how many so far (a worker that stops
 * answering has sent at least these: the page never sends them again). `done`, once: the first `sent`
 * keys posted went to the agent (each acknowledged by the server, or on a socket that then dropped: at
 * most once); the page sends the rest itself.
 */
export interface EarlyWorkerDone {
  readonly type: "sent" | "done";
  readonly sent: number;
}

interface WorkerScope {
  readonly name: string;
  onmessage: ((event: { data: EarlyWorkerIn }) => void) | null;
  postMessage(message: EarlyWorkerDone): void;
  close(): void;
}

export function earlyWorker(scope: WorkerScope, Socket: typeof WebSocket): void {
  // Connects as its script runs. Its settings come in its name: a message from the page reaches a
  // worker that is still starting only once the page's main thread has had a turn (~DOMContentLoaded
  // here, docs/performance/reattach.md, "Round 9"), which is what this worker is for not waiting for.
  const { url, sessionId } = JSON.parse(scope.name) as EarlyWorkerSettings;
  const socket = new Socket(url);
  let attached = false;
  let stopping = false;
  let finished = false;
  const waiting: string[] = [];
  let nextId = 0;
  let attachId = -1;
  let sent = 0;
  let inFlight = 0;

  const finish = () => {
    if (finished) return;
    finished = true;
    scope.postMessage({ type: "done", sent });
    socket.close();
    scope.close();
  };
  const emit = (args: unknown[]) => {
    const id = nextId++;
    socket.send(`42${id}${JSON.stringify(args)}`);
    return id;
  };
  const flush = () => {
    while (attached && !stopping && waiting.length) {
      emit(["terminal:input", { sessionId, data: waiting.shift() }]);
      sent++;
      inFlight++;
      scope.postMessage({ type: "sent", sent });
    }
  };
  const onPacket = (packet: string) => {
    if (packet === "2") return socket.send("3");
    if (packet.startsWith("0")) return socket.send("40");
    if (packet.startsWith("40")) {
      attachId = emit(["terminal:attach", { sessionId, inputOnly: true }]);
      return;
    }
    if (packet.startsWith("44")) return finish(); // the connection was refused
    const ack = /^43(\d+)(.*)$/s.exec(packet);
    if (!ack) return;
    if (Number(ack[1]) === attachId) {
      const reply = (JSON.parse(ack[2] ?? "[]") as [{ ok: boolean }?])[0];
      if (!reply?.ok) return finish();
      attached = true;
      return flush();
    }
    inFlight--;
    if (stopping && inFlight === 0) finish();
  };

  socket.onmessage = (event) => {
    try {
      if (typeof event.data === "string") onPacket(event.data);
    } catch {
      finish(); // a packet it cannot read: stop here, what it sent counted
    }
  };
  socket.onclose = finish;
  socket.onerror = finish;

  scope.onmessage = ({ data: message }) => {
    if (finished) return;
    if (message.type === "key") {
      waiting.push(message.data);
      flush();
    } else {
      stopping = true;
      if (inFlight === 0) finish();
    }
  };
}

/** The worker's script: the function's own source, run on the worker's scope. */
export function earlyWorkerSource(): string {
  return `(${earlyWorker.toString()})(self, WebSocket);`;
}
