// The early keys' worker as the browser runs it: its served source text, against a fake worker scope
// and WebSocket. The real server and Chromium are e2e/early-keys.spec.ts's; the page's side is
// app/study/early-catcher.test.ts.
import { beforeEach, describe, expect, it } from "vitest";
import { earlyWorkerSource, type EarlyWorkerDone, type EarlyWorkerIn } from "./early-worker.ts";

class FakeSocket {
  static made: FakeSocket[] = [];
  readonly sent: string[] = [];
  closed = false;
  onmessage: ((e: { data: unknown }) => void) | null = null;
  onclose: (() => void) | null = null;
  onerror: (() => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.made.push(this);
  }
  send(text: string) {
    this.sent.push(text);
  }
  close() {
    this.closed = true;
  }
  receive(packet: string) {
    this.onmessage!({ data: packet });
  }
}

let scope: {
  name: string;
  onmessage: ((e: { data: EarlyWorkerIn }) => void) | null;
  posted: EarlyWorkerDone[];
  closed: boolean;
  postMessage(m: EarlyWorkerDone): void;
  close(): void;
};
/** The worker's report after each key it puts on its socket: 1, 2, ... n. */
const sentReports = (n: number): EarlyWorkerDone[] => Array.from({ length: n }, (_, i) => ({ type: "sent", sent: i + 1 }));
const post = (message: EarlyWorkerIn) => scope.onmessage!({ data: message });
const socket = () => FakeSocket.made[0]!;

/** The worker's script run on a fresh scope, named as the page names it. */
function startWorker(url = "ws://host/socket.io/?EIO=4&transport=websocket") {
  FakeSocket.made = [];
  scope = {
    name: JSON.stringify({ url, sessionId: "s1" }),
    onmessage: null,
    posted: [],
    closed: false,
    postMessage(m) {
      this.posted.push(m);
    },
    close() {
      this.closed = true;
    },
  };
  new Function("self", "WebSocket", earlyWorkerSource())(scope, FakeSocket);
}
beforeEach(() => startWorker());

/** The engine.io and socket.io handshake, up to the attach request. */
function connect() {
  socket().receive('0{"sid":"e1","pingInterval":25000,"pingTimeout":20000}');
  socket().receive('40{"sid":"x1"}');
}

describe("the early keys' worker", () => {
  it("connects as it starts (its settings in its name), attaches for input only, holds keys until acknowledged, then sends each with an ack id", () => {
    expect(socket().url).toBe("ws://host/socket.io/?EIO=4&transport=websocket");
    post({ type: "key", data: "h" });
    connect();
    post({ type: "key", data: "i" });
    expect(socket().sent).toEqual(["40", '420["terminal:attach",{"sessionId":"s1","inputOnly":true}]']);
    socket().receive('430[{"ok":true,"value":{"session":{}}}]');
    post({ type: "key", data: "\r" });
    expect(socket().sent.slice(2)).toEqual([
      '421["terminal:input",{"sessionId":"s1","data":"h"}]',
      '422["terminal:input",{"sessionId":"s1","data":"i"}]',
      '423["terminal:input",{"sessionId":"s1","data":"\\r"}]',
    ]);
    // Pings are answered: the server would otherwise drop it.
    socket().receive("2");
    expect(socket().sent.at(-1)).toBe("3");
  });

  it("on stop, sends nothing more and says how many it sent once the server acked them", () => {
    connect();
    socket().receive('430[{"ok":true,"value":{}}]');
    post({ type: "key", data: "a" });
    post({ type: "key", data: "b" });
    post({ type: "stop" });
    post({ type: "key", data: "c" });
    expect(socket().sent.filter((p) => p.includes("terminal:input"))).toHaveLength(2);
    socket().receive('431[{"ok":true,"value":null}]');
    expect(scope.posted).toEqual(sentReports(2));
    socket().receive('432[{"ok":true,"value":null}]');
    expect(scope.posted).toEqual([...sentReports(2), { type: "done", sent: 2 }]);
    expect(socket().closed).toBe(true);
    expect(scope.closed).toBe(true);
  });

  it("stopped before its attach was acknowledged: sent nothing, every key is the page's", () => {
    connect();
    post({ type: "key", data: "a" });
    post({ type: "stop" });
    expect(scope.posted).toEqual([{ type: "done", sent: 0 }]);
    socket().receive('430[{"ok":true,"value":{}}]');
    expect(socket().sent.some((p) => p.includes("terminal:input"))).toBe(false);
  });

  it("a refused attach, a refused connection or a dropped socket ends it with what it sent", () => {
    connect();
    socket().receive('430[{"ok":false,"status":409,"error":"This session has ended."}]');
    expect(scope.posted).toEqual([{ type: "done", sent: 0 }]);

    startWorker("ws://host/");
    connect();
    socket().receive('430[{"ok":true,"value":{}}]');
    post({ type: "key", data: "a" });
    socket().onclose!();
    expect(scope.posted).toEqual([...sentReports(1), { type: "done", sent: 1 }]);

    startWorker("ws://host/");
    socket().receive("0{}");
    socket().receive('44{"message":"refused"}');
    expect(scope.posted).toEqual([{ type: "done", sent: 0 }]);
  });
});
