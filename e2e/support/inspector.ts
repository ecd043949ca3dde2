// Holds a real server's main thread, as a heavy request or a stuck parser would, through Node's
// inspector: the server is started with NODE_OPTIONS=--inspect=127.0.0.1:0 and prints the address.
import WebSocket from "ws";
import type { StartedServer } from "./server";

/** What a server needs in its environment to be blockable. */
export const INSPECTABLE = { NODE_OPTIONS: "--inspect=127.0.0.1:0" } as const;

/** Runs a busy loop on the server's main thread for `ms`; resolves once it has finished. */
export async function blockMainThread(server: StartedServer, ms: number): Promise<void> {
  const address = /Debugger listening on (ws:\/\/127\.0\.0\.1:\d+\/[\w-]+)/.exec(server.output())?.[1];
  if (!address) throw new Error("The server was not started with INSPECTABLE in its environment.");
  const ws = new WebSocket(address);
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  try {
    const done = new Promise<void>((resolve, reject) => {
      ws.on("message", (data) => {
        const reply = JSON.parse(String(data)) as { id?: number; error?: { message: string } };
        if (reply.id !== 1) return;
        if (reply.error) reject(new Error(reply.error.message));
        else resolve();
      });
    });
    const expression = `(() => { const until = Date.now() + ${ms}; while (Date.now() < until) {} })()`;
    ws.send(JSON.stringify({ id: 1, method: "Runtime.evaluate", params: { expression } }));
    await done;
  } finally {
    ws.close();
  }
}
