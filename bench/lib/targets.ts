// The three pipelines the benchmark drives, each started as its own server process on 127.0.0.1 with
// the same shell (bench/workload/bashrc) in its pty:
// - ours: `studyloop web` (the production build) with a data directory whose agent is that shell;
// - wetty: the npm package wetty 3.2.0, a peer on socket.io + node-pty, running the same shell;
// - bare: bench/bare/server.mjs, node-pty -> ws -> xterm.js, the practical limit.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { BrowserContext, Page } from "@playwright/test";
import { freePort, startProcess, type Started } from "./proc.ts";

export const ROOT = path.resolve(import.meta.dirname, "..", "..");
export const BENCH = path.join(ROOT, "bench");
export const FLOOD = path.join(BENCH, "workload", "flood.mjs");

/** "ours-norec": ours with recording off (STUDYLOOP_RECORDING_MAX_MB=0), for recording's cost on throughput. */
/** "ours-b": another checkout's build (STUDYLOOP_ROOT_B), in the same rounds as ours: an A/B in one run. */
export type TargetName = "ours" | "ours-norec" | "ours-b" | "wetty" | "bare";

export interface Target {
  readonly name: TargetName;
  /** The server's own process: its RSS is what "server memory" reports. */
  readonly pid: number;
  readonly url: string;
  /** Fetches the terminal page once so the server has loaded what serving it takes. */
  warm(): Promise<void>;
  /** Opens the terminal page (starting a session first where the pipeline needs one) and waits for the shell. */
  open(context: BrowserContext, size?: { cols: number; rows: number }): Promise<Page>;
  stop(): Promise<void>;
}

/** A temporary folder without spaces (wetty splits its --command on spaces) holding the shell's rc file. */
export function workDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-bench-"));
  fs.copyFileSync(path.join(BENCH, "workload", "bashrc"), path.join(dir, "bashrc"));
  return dir;
}

export function shellArgs(dir: string): string[] {
  return ["--rcfile", path.join(dir, "bashrc"), "-i"];
}

/** Waits for the page's terminal, focuses it, presses Enter and waits for a fresh prompt on screen. */
export async function waitForShell(page: Page): Promise<void> {
  await page.waitForFunction(() => window.__bench?.term !== null && window.__bench?.term !== undefined, null, { timeout: 60_000 });
  await page.waitForTimeout(300);
  await page.evaluate(() => window.__bench.term!.focus());
  const before = await promptCount(page);
  await page.keyboard.press("Enter");
  await page.waitForFunction((n) => window.__bench.marks.filter((m) => m.name === "prompt" && m.renderedAt !== null).length > n, before, {
    timeout: 30_000,
  });
}

/**
 * wetty and ours fit their terminal to the window: size the viewport so the terminal lands on `size`
 * (the bench's fixed geometry), from the cell size the page measured, and wait for the fit to settle.
 * Returns the terminal's size as it ended.
 */
export async function fitViewportTo(page: Page, size: { cols: number; rows: number }): Promise<{ cols: number; rows: number }> {
  const now = () =>
    page.evaluate(() => {
      const term = window.__bench.term!;
      const screen = document.querySelector<HTMLElement>(".xterm-screen");
      return {
        cols: term.cols,
        rows: term.rows,
        cellWidth: screen ? screen.offsetWidth / term.cols : 9,
        cellHeight: screen ? screen.offsetHeight / term.rows : 17,
      };
    });
  for (let attempt = 0; attempt < 6; attempt++) {
    const at = await now();
    if (at.cols === size.cols && at.rows === size.rows) break;
    const viewport = page.viewportSize() ?? { width: 1280, height: 800 };
    await page.setViewportSize({
      width: Math.max(
        320,
        Math.round(viewport.width + (size.cols - at.cols) * at.cellWidth + (size.cols > at.cols ? at.cellWidth / 2 : 0)),
      ),
      height: Math.max(
        320,
        Math.round(viewport.height + (size.rows - at.rows) * at.cellHeight + (size.rows > at.rows ? at.cellHeight / 2 : 0)),
      ),
    });
    await page.waitForTimeout(600);
  }
  const { cols, rows } = await now();
  return { cols, rows };
}

export function promptCount(page: Page): Promise<number> {
  return page.evaluate(() => window.__bench.marks.filter((m) => m.name === "prompt").length);
}

/**
 * `studyloop ARGS` from the checkout at `root`, run as a learner's shell runs the command: the file
 * itself, so its first line applies (bin/start-settings.js). Extra Node flags go in NODE_OPTIONS.
 */
export function ourCommand(root: string, args: string[]): [string, string[]] {
  return [path.join(root, "bin", "studyloop.js"), args];
}

/**
 * `studyloop web --port 0 --data-dir DATA [...extra]` from the checkout at `root`, started as ourCommand
 * runs it, ready once it prints its address. Node flags (a CPU profile, an inspector) go after the
 * environment's own NODE_OPTIONS, as a learner's would; the server keeps them out of the agent's.
 */
export function startStudyLoopWeb(
  root: string,
  dataDir: string,
  opts: { extraArgs?: string[]; nodeFlags?: string[]; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<Started> {
  const env = opts.env ?? process.env;
  const nodeOptions = [env.NODE_OPTIONS ?? "", ...(opts.nodeFlags ?? [])].filter(Boolean).join(" ");
  return startProcess(...ourCommand(root, ["web", "--port", "0", "--data-dir", dataDir, ...(opts.extraArgs ?? [])]), {
    cwd: root,
    env: nodeOptions ? { ...env, NODE_OPTIONS: nodeOptions } : env,
    ready: /running at (http:\/\/\S+)/,
    name: "StudyLoop",
    timeoutMs: opts.timeoutMs ?? 600_000,
  });
}

export async function startOurs(
  dir: string,
  opts: { recording?: boolean; nodeFlags?: string[]; root?: string } = {},
): Promise<Target & { readonly dataDir: string; readonly output: () => string }> {
  const dataDir = path.join(dir, "data");
  fs.mkdirSync(dataDir);
  fs.writeFileSync(
    path.join(dataDir, "studyloop.config.json"),
    JSON.stringify({ agents: { bench: { label: "Benchmark shell", command: "/bin/bash", args: shellArgs(dir) } } }, null, 2),
  );
  // STUDYLOOP_ROOT: another checkout's build (a before/after comparison with this harness).
  const root = opts.root ?? process.env.STUDYLOOP_ROOT ?? ROOT;
  // As a learner starts it: the command itself (npm's bin link, `npm run web`), whose first line sets
  // what only a process's start can (bin/start-settings.js); its PID is the server's own.
  const started = await startStudyLoopWeb(root, dataDir, {
    env: opts.recording === false ? { ...process.env, STUDYLOOP_RECORDING_MAX_MB: "0" } : process.env,
    nodeFlags: opts.nodeFlags,
  });
  const url = started.url.replace(/\/$/, "");
  return {
    name: opts.root ? "ours-b" : opts.recording === false ? "ours-norec" : "ours",
    pid: started.child.pid!,
    url,
    dataDir,
    output: started.output,
    warm: async () => {
      await (await fetch(`${url}/study`)).text();
    },
    open: async (context, size) => {
      const state = (await (await fetch(`${url}/api/session/state`)).json()) as { state: string };
      if (state.state !== "focus") {
        const res = await fetch(`${url}/api/session/start`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: url },
          body: JSON.stringify({ topic: "benchmark", energy: 5, agent: "bench", transport: "pty" }),
        });
        if (!res.ok) throw new Error(`Could not start a StudyLoop session: ${res.status} ${await res.text()}`);
      }
      const page = await context.newPage();
      await page.goto(`${url}/study`);
      await waitForShell(page);
      if (size) await fitViewportTo(page, size);
      return page;
    },
    stop: () => stopped(started),
  };
}

export async function startWetty(dir: string): Promise<Target> {
  const port = await freePort();
  const main = path.join(BENCH, "node_modules", "wetty", "build", "main.js");
  const started = await startProcess(
    process.execPath,
    [
      main,
      "--host",
      "127.0.0.1",
      "--port",
      String(port),
      "--base",
      "/wetty",
      "--log-level",
      "warn",
      "--command",
      ["/bin/bash", ...shellArgs(dir)].join(" "),
    ],
    { cwd: dir, ready: { url: `http://127.0.0.1:${port}/wetty` }, name: "wetty", timeoutMs: 60_000 },
  );
  const url = started.url;
  return {
    name: "wetty",
    pid: started.child.pid!,
    url,
    warm: async () => {
      await (await fetch(url)).text();
    },
    open: async (context, size) => {
      const page = await context.newPage();
      await page.goto(url);
      await waitForShell(page);
      if (size) await fitViewportTo(page, size);
      return page;
    },
    stop: () => stopped(started),
  };
}

export async function startBare(dir: string): Promise<Target> {
  const args = shellArgs(dir).flatMap((a) => ["--arg", a]);
  const started = await startProcess(
    process.execPath,
    [path.join(BENCH, "bare", "server.mjs"), "--port", "0", "--command", "/bin/bash", ...args],
    {
      cwd: dir,
      ready: /bare running at (http:\/\/\S+)/,
      name: "bare pipeline",
      timeoutMs: 30_000,
    },
  );
  const url = started.url.replace(/\/$/, "");
  return {
    name: "bare",
    pid: started.child.pid!,
    url,
    warm: async () => {
      await (await fetch(`${url}/`)).text();
    },
    open: async (context, size) => {
      const page = await context.newPage();
      // Room for the whole fixed-size terminal (DejaVu Sans Mono at 14px: about 8.5 x 17 px a cell).
      if (size) await page.setViewportSize({ width: Math.max(1280, size.cols * 9 + 40), height: Math.max(800, size.rows * 18 + 40) });
      await page.goto(size ? `${url}/?cols=${size.cols}&rows=${size.rows}` : `${url}/`);
      await waitForShell(page);
      return page;
    },
    stop: () => stopped(started),
  };
}

async function stopped(started: Started): Promise<void> {
  await started.stop();
}
