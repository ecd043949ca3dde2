// `npm run studio -- --port N` (issue 40): Prisma Studio on the port asked for (5555 when none), a busy
// port said in one sentence (exit 2) before anything runs, and a clean stop on Ctrl-C. Real processes.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../config/paths.ts";
import { parseCommand } from "./options.ts";
import { DEFAULT_STUDIO_PORT, studioCommand } from "./studio.ts";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
const dataDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-studio-"));
  dirs.push(dir);
  return dir;
};

/** A port something listens on, until `close`. */
async function busyPort(): Promise<{ port: number; close: () => Promise<void> }> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as net.AddressInfo).port, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe("studio's options", () => {
  it.each([
    [[], undefined],
    [["--port", "6123"], 6123],
    [["--port=7000"], 7000],
  ])("%j", (argv, port) => {
    expect(parseCommand(studioCommand, argv).options.port).toBe(port);
  });
  it("defaults to 5555", () => expect(DEFAULT_STUDIO_PORT).toBe(5555));
});

describe("npm run studio (real processes)", () => {
  const env = { ...process.env, STUDYLOOP_DATA_DIR: "", DATABASE_URL: "", npm_config_update_notifier: "false" };

  it.each([
    [
      "a busy port",
      (port: number) => ["--port", String(port)],
      (port: number) =>
        `studio: Port ${port} on 127.0.0.1 is already in use (is Studio already running?): stop it or choose another port with --port.`,
    ],
    ["port 0", () => ["--port", "0"], () => "studio: --port must be from 1 to 65535 for Studio."],
    ["no number", () => ["--port", "five"], () => '--port must be a whole number from 1 to 65535, not "five".'],
  ])("%s: one sentence, exit 2, nothing started", async (_name, args, sentence) => {
    const busy = await busyPort();
    try {
      const result = spawnSync("npm", ["run", "--silent", "studio", "--", ...args(busy.port), "--data-dir", dataDir()], {
        cwd: PROJECT_ROOT,
        encoding: "utf8",
        env,
        timeout: 60_000,
      });
      expect(result.status).toBe(2);
      expect(result.stderr.trim()).toContain(sentence(busy.port));
    } finally {
      await busy.close();
    }
  });

  it("serves Studio on the port asked for, and stops cleanly on Ctrl-C", async () => {
    const { port, close } = await busyPort();
    await close(); // a port that was free a moment ago
    const child = spawn(process.execPath, ["--import", "tsx", "server/cli/studio.ts", "--port", String(port), "--data-dir", dataDir()], {
      cwd: PROJECT_ROOT,
      env,
    });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    try {
      await expect.poll(() => output, { timeout: 60_000, interval: 200 }).toContain(`Prisma Studio: http://127.0.0.1:${port}/`);
      expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(200);
    } finally {
      child.kill("SIGINT");
    }
    expect(await exited).toBe(0);
  });
});
