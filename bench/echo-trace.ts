// `node --import tsx bench/echo-trace.ts`: where a keystroke's echo spends its time, ours against the
// bare pipeline, at the same terminal size (BENCH_GEOMETRY, default 150x50), in headless Chromium.
// Each key typed into `cat` is split into legs, all in the page's clock except the network's:
// - key: keydown (the event's time stamp) to the page's WebSocket send of the input;
// - round trip in the renderer: that send to the echo's WebSocket message event in the page;
// - of which the network service: CDP's Network.webSocketFrameSent to webSocketFrameReceived (Chromium's
//   network process: the loopback TCP round trip plus the server; the rest is the renderer's IPC);
// - to parsed: the message event to xterm having parsed the echo (socket.io decoding, the page's handler,
//   xterm's write);
// - to rendered: parsed to the next rendered frame.
// With ECHO_TRACE=FILE a Chromium trace (CDP Tracing: devtools.timeline, v8, the network) of one block
// of ours' keys is written to FILE, for chrome://tracing or Perfetto. Knobs: ECHO_KEYS (200), ECHO_BLOCKS (4).
import fs from "node:fs";
import os from "node:os";
import { chromium, type CDPSession, type Page } from "@playwright/test";
import { sleep } from "./lib/proc.ts";
import { startBare, startOurs, workDir, type Target } from "./lib/targets.ts";
import { median, percentile } from "./lib/stats.ts";

const [COLS, ROWS] = (process.env.BENCH_GEOMETRY ?? "150x50").split("x").map(Number) as [number, number];
const KEYS = Number(process.env.ECHO_KEYS ?? 200);
const BLOCKS = Number(process.env.ECHO_BLOCKS ?? 4);
const TRACE = process.env.ECHO_TRACE;
const FRAME_MS = 1000 / 60;

/** Page-side hooks: when the input left through WebSocket.send and when the next message arrived. */
const HOOKS = () => {
  const w = window as unknown as { __echo: { sentAt: number | null; recvAt: number | null } };
  w.__echo = { sentAt: null, recvAt: null };
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (this: WebSocket, data: string | ArrayBufferLike | Blob | ArrayBufferView) {
    if (typeof data === "string" && (data.includes('"terminal:input"') || data.startsWith("i"))) w.__echo.sentAt = performance.now();
    return send.call(this, data);
  };
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args: ConstructorParameters<typeof WebSocket>) {
      super(...args);
      this.addEventListener("message", () => {
        if (w.__echo.sentAt !== null && w.__echo.recvAt === null) w.__echo.recvAt = performance.now();
      });
    }
  };
};

interface Leg {
  key: number[];
  roundTrip: number[];
  network: number[];
  toParsed: number[];
  toRendered: number[];
  total: number[];
}

async function typeBlock(page: Page, cdp: CDPSession, keys: number, leg: Leg): Promise<void> {
  const frames: { sent: number[]; received: number[] } = { sent: [], received: [] };
  const onSent = (e: { timestamp: number; response: { payloadData: string } }) => {
    if (e.response.payloadData.includes('"terminal:input"') || e.response.payloadData.startsWith("i")) frames.sent.push(e.timestamp);
  };
  const onReceived = (e: { timestamp: number }) => frames.received.push(e.timestamp);
  cdp.on("Network.webSocketFrameSent", onSent);
  cdp.on("Network.webSocketFrameReceived", onReceived);
  await page.keyboard.type("cat\n");
  await sleep(300);
  const letters = "abcdefghijklmnopqrstuvwxyz";
  for (let i = 0; i < keys; i++) {
    if (i > 0 && i % 50 === 0) {
      await page.keyboard.press("Enter");
      await page.waitForFunction(() => window.__bench.term!.buffer.active.cursorX === 0, null, { polling: 10 });
      await sleep(20);
    }
    await page.evaluate(() => {
      window.__bench.echo = null;
      (window as unknown as { __echo: object }).__echo = { sentAt: null, recvAt: null };
    });
    frames.sent.length = 0;
    frames.received.length = 0;
    await sleep(Math.random() * FRAME_MS);
    await page.keyboard.press(letters[i % letters.length]!);
    const handle = await page.waitForFunction(
      () => {
        const e = window.__bench.echo;
        const x = (window as unknown as { __echo: { sentAt: number | null; recvAt: number | null } }).__echo;
        return e?.renderedAt != null ? { ...e, sentAt: x.sentAt, recvAt: x.recvAt } : false;
      },
      null,
      { polling: "raf", timeout: 10_000 },
    );
    const e = (await handle.jsonValue()) as { t0: number; parsedAt: number; renderedAt: number; sentAt: number; recvAt: number };
    leg.key.push(e.sentAt - e.t0);
    leg.roundTrip.push(e.recvAt - e.sentAt);
    const sentTs = frames.sent[0];
    const recvTs = sentTs === undefined ? undefined : frames.received.find((t) => t >= sentTs);
    leg.network.push(sentTs !== undefined && recvTs !== undefined ? (recvTs - sentTs) * 1000 : Number.NaN);
    leg.toParsed.push(e.parsedAt - e.recvAt);
    leg.toRendered.push(e.renderedAt - e.parsedAt);
    leg.total.push(e.renderedAt - e.t0);
  }
  await page.keyboard.press("Enter");
  await page.keyboard.press("Control+D");
  await sleep(300);
  cdp.off("Network.webSocketFrameSent", onSent);
  cdp.off("Network.webSocketFrameReceived", onReceived);
}

async function main(): Promise<void> {
  const load = os.loadavg()[0]!.toFixed(2);
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
  const targets: { name: string; target: Target; page?: Page; cdp?: CDPSession; leg: Leg }[] = [];
  const dirs: string[] = [];
  try {
    for (const start of [startOurs, startBare]) {
      const dir = workDir();
      dirs.push(dir);
      const target = await start(dir);
      targets.push({ name: target.name, target, leg: { key: [], roundTrip: [], network: [], toParsed: [], toRendered: [], total: [] } });
    }
    for (const t of targets) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      await context.addInitScript({ path: new URL("./lib/probe.js", import.meta.url).pathname });
      await context.addInitScript(HOOKS);
      t.page = await t.target.open(context, { cols: COLS, rows: ROWS });
      t.cdp = await context.newCDPSession(t.page);
      await t.cdp.send("Network.enable");
      const size = await t.page.evaluate(() => `${window.__bench.term!.cols}x${window.__bench.term!.rows}`);
      console.log(`${t.name}: terminal ${size}`);
    }
    for (let block = 0; block < BLOCKS; block++) {
      for (const t of targets) {
        const tracing = TRACE && block === 1 && t.name === "ours";
        const chunks: unknown[] = [];
        if (tracing) {
          t.cdp!.on("Tracing.dataCollected", (e: { value: unknown[] }) => chunks.push(...e.value));
          await t.cdp!.send("Tracing.start", {
            traceConfig: {
              includedCategories: ["devtools.timeline", "disabled-by-default-devtools.timeline", "v8.execute", "blink", "net", "toplevel"],
            },
            transferMode: "ReportEvents",
          });
        }
        await typeBlock(t.page!, t.cdp!, Math.round(KEYS / BLOCKS), t.leg);
        if (tracing) {
          const done = new Promise((resolve) => t.cdp!.once("Tracing.tracingComplete", resolve));
          await t.cdp!.send("Tracing.end");
          await done;
          fs.writeFileSync(TRACE, JSON.stringify({ traceEvents: chunks }));
          console.log(`trace of ours' block written to ${TRACE} (${chunks.length} events)`);
        }
      }
    }
    const fmt = (xs: number[]) => {
      const ok = xs.filter((x) => !Number.isNaN(x));
      return `${median(ok).toFixed(2)} (p10 ${percentile(ok, 10).toFixed(2)}, p90 ${percentile(ok, 90).toFixed(2)})`;
    };
    console.log(
      `\nmedian ms (p10, p90) of ${KEYS} keys each, ${COLS}x${ROWS}, load average ${load} before, ${os.loadavg()[0]!.toFixed(2)} after`,
    );
    for (const t of targets) {
      const l = t.leg;
      console.log(`${t.name}:`);
      console.log(`  keydown -> ws send            ${fmt(l.key)}`);
      console.log(`  ws send -> echo message event ${fmt(l.roundTrip)}`);
      console.log(`    of which network service    ${fmt(l.network)}`);
      console.log(`  message event -> parsed       ${fmt(l.toParsed)}`);
      console.log(`  parsed -> rendered            ${fmt(l.toRendered)}`);
      console.log(`  keydown -> rendered           ${fmt(l.total)}`);
    }
  } finally {
    await browser.close();
    for (const t of targets) await t.target.stop();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
