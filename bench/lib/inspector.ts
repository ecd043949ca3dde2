// A server's main thread through the inspector it was started with (--inspect=127.0.0.1:0): CPU
// profiles, sampling heap profiles, memory figures and heap snapshots, for the benches.
import fs from "node:fs";

/** The main thread's CPU profiler, through the inspector the server was started with. */
export async function inspector(output: string): Promise<{
  start(): Promise<void>;
  stop(file: string): Promise<void>;
  startSampling(): Promise<void>;
  stopSampling(file: string): Promise<void>;
  memory(): Promise<string>;
  collect(): Promise<void>;
  snapshot(file: string): Promise<void>;
  close(): void;
}> {
  const match = /Debugger listening on (ws:\/\/\S+)/.exec(output);
  if (!match) throw new Error("The server did not print its inspector's address");
  const ws = new WebSocket(match[1]!);
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = reject;
  });
  let next = 1;
  const pending = new Map<number, (result: unknown) => void>();
  let chunks: string[] = [];
  ws.onmessage = (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; method?: string; params?: { chunk?: string } };
    if (message.method === "HeapProfiler.addHeapSnapshotChunk") chunks.push(message.params!.chunk!);
    if (message.id) pending.get(message.id)?.(message.result);
  };
  const call = (method: string, params: object = {}) =>
    new Promise<unknown>((resolve) => {
      const id = next++;
      pending.set(id, resolve);
      ws.send(JSON.stringify({ id, method, params }));
    });
  await call("Profiler.enable");
  await call("Profiler.setSamplingInterval", { interval: 200 });
  return {
    start: async () => void (await call("Profiler.start")),
    stop: async (file) => {
      const result = (await call("Profiler.stop")) as { profile: unknown };
      fs.writeFileSync(file, JSON.stringify(result.profile));
    },
    startSampling: async () =>
      void (await call("HeapProfiler.startSampling", {
        samplingInterval: 32_768,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      })),
    stopSampling: async (file) => {
      const result = (await call("HeapProfiler.stopSampling")) as { profile: unknown };
      fs.writeFileSync(file, JSON.stringify(result.profile));
    },
    /** The main thread's process.memoryUsage(), in MB. */
    memory: async () => {
      const expression = `JSON.stringify(Object.fromEntries(Object.entries(process.memoryUsage()).map(([k, v]) => [k, Math.round(v / 1048576)])))`;
      const result = (await call("Runtime.evaluate", { expression, returnByValue: true })) as { result: { value: string } };
      return result.result.value;
    },
    /** After a full garbage collection (HeapProfiler.collectGarbage): what is really kept. */
    collect: async () => void (await call("HeapProfiler.collectGarbage")),
    /** A heap snapshot of the main thread, into `file` (load it in Chromium's DevTools, Memory tab). */
    snapshot: async (file: string) => {
      chunks = [];
      await call("HeapProfiler.takeHeapSnapshot", { reportProgress: false });
      fs.writeFileSync(file, chunks.join(""));
      chunks = [];
    },
    close: () => ws.close(),
  };
}
