// Process helpers for the benchmark: start a server and wait for its "running at URL" line, read a
// process's resident memory from /proc, stop what was started (by its pid, never by name).
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";

export interface Started {
  readonly url: string;
  readonly child: ChildProcess;
  readonly output: () => string;
  stop(): Promise<void>;
}

/** Spawns `command`, waits until its output matches `ready` (group 1: the URL), at most `timeoutMs`. */
export async function startProcess(
  command: string,
  args: string[],
  opts: { cwd: string; env?: NodeJS.ProcessEnv; ready: RegExp | { url: string }; timeoutMs?: number; name: string },
): Promise<Started> {
  const child = spawn(command, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ["ignore", "pipe", "pipe"] });
  // A run that fails half-way must not leave its servers behind.
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  child.once("exit", () => process.off("exit", killOnExit));
  let output = "";
  const append = (d: Buffer) => {
    output += d.toString();
    if (output.length > 200_000) output = output.slice(-100_000);
  };
  child.stdout!.on("data", append);
  child.stderr!.on("data", append);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${opts.name} did not start within ${opts.timeoutMs ?? 120_000} ms:\n${output}`)),
      opts.timeoutMs ?? 120_000,
    );
    const ready = opts.ready;
    if (!(ready instanceof RegExp)) {
      const poll = async () => {
        while (child.exitCode === null) {
          try {
            const res = await fetch(ready.url);
            await res.arrayBuffer();
            clearTimeout(timer);
            resolve(ready.url);
            return;
          } catch {
            await sleep(20);
          }
        }
      };
      void poll();
    }
    const check = () => {
      if (!(ready instanceof RegExp)) return;
      const match = ready.exec(output);
      if (match) {
        clearTimeout(timer);
        child.stdout!.off("data", check);
        child.stderr!.off("data", check);
        resolve(match[1]!);
      }
    };
    child.stdout!.on("data", check);
    child.stderr!.on("data", check);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`${opts.name} exited before it started:\n${output}`));
    });
  });
  return {
    url,
    child,
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** A free TCP port on 127.0.0.1 (for a server that cannot take --port 0). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address() as net.AddressInfo;
      server.close(() => resolve(address.port));
    });
  });
}

/** Resident set size of one process in bytes (VmRSS), or undefined if it is gone. */
export function rssBytes(pid: number): number | undefined {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** CPU time one process has used so far (user + system, all threads) in ms, or undefined if it is gone. */
export function cpuMs(pid: number): number | undefined {
  try {
    // After the command's ") ": state is field 3, utime and stime fields 14 and 15, in clock ticks (100 a second on Linux).
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/** Samples the peak RSS of `pid` every `everyMs` until stopped. */
export function sampleRss(pid: number, everyMs = 50): { stop(): number } {
  let peak = rssBytes(pid) ?? 0;
  const timer = setInterval(() => {
    peak = Math.max(peak, rssBytes(pid) ?? 0);
  }, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(peak, rssBytes(pid) ?? 0);
    },
  };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
