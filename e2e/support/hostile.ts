// Shared by the security specs: raw HTTP requests with full control over headers and bodies, what is
// stored (to prove a refusal wrote nothing), pairing a device, and the agent's environment.
import { expect } from "@playwright/test";
import http from "node:http";
import https from "node:https";
import type { StartedServer } from "./server";
import { KEEPER_COLUMNS, storedState, withDb } from "./db";
import { connect, Viewer } from "./socket";

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One raw HTTP(S) request to the server: full control over Host, Origin, cookies and the body. */
export function send(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string | Buffer; chunked?: boolean } = {},
): Promise<Reply> {
  const target = new URL(url);
  const lib = target.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const req = lib.request(
      target,
      { method: opts.method ?? "GET", headers: opts.headers ?? {}, rejectUnauthorized: false, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
      },
    );
    req.on("error", reject);
    if (opts.chunked) {
      // No Content-Length: Node sends Transfer-Encoding: chunked.
      req.write(opts.body ?? "");
      req.end();
    } else req.end(opts.body);
  });
}

export const json = (body: unknown, extra: Record<string, string> = {}) => ({
  headers: { "content-type": "application/json", ...extra },
  body: JSON.stringify(body),
});

/**
 * Everything stored: the learner's tables, the session folders, and the devices (not when last seen).
 * Less what a live session's server writes of its own accord (KEEPER_COLUMNS): its heartbeat can land
 * between two reads around a refused request.
 */
export function state(dataDir: string): string {
  const devices = withDb(dataDir, (db) => db.prepare("SELECT id, name, token_hash, created_at, revoked_at FROM devices ORDER BY id").all());
  return JSON.stringify({ learner: storedState(dataDir, KEEPER_COLUMNS), devices });
}

export function tokenOf(link: string): string {
  return new URL(link).searchParams.get("token")!;
}

/** Pairs a device through POST /pair with a token; returns its cookie header value. */
export async function pairWith(server: StartedServer, token: string, name: string): Promise<string> {
  const res = await send(`${server.url}/pair`, { method: "POST", ...json({ token, name }) });
  expect(res.status, res.body).toBe(201);
  const setCookie = String(res.headers["set-cookie"]);
  return setCookie.split(";")[0]!;
}

/** A fresh token from a paired device's "Pair a device" (the loopback link, which the API gives to loopback). */
export async function freshToken(server: StartedServer, cookie: string): Promise<string> {
  const res = await send(`${server.url}/api/devices/pairing`, { method: "POST", headers: { cookie, origin: server.url } });
  expect(res.status, res.body).toBe(201);
  const body = JSON.parse(res.body) as { links: { label: string; pairUrl: string }[] };
  return tokenOf(body.links.find((l) => l.label === "this machine")!.pairUrl);
}

/**
 * Starts a session with the test tutor as the paired `cookie`, and reads the agent's environment
 * variables through the terminal (the tutor's `env NAME` command).
 */
export async function startAndReadEnv(
  server: StartedServer,
  cookie: string,
  names: string[],
  opts: { insecure?: boolean } = {},
): Promise<Record<string, string>> {
  const started = await send(`${server.url}/api/session/start`, {
    method: "POST",
    ...json({ topic: "agent env", energy: 5, agent: "tutor" }, { cookie, origin: server.url }),
  });
  expect(started.status, started.body).toBe(201);
  const id = (JSON.parse(started.body) as { session: { id: string } }).session.id;
  const socket = await connect(server.url, { headers: { cookie, origin: server.url }, insecure: opts.insecure ?? false });
  const viewer = new Viewer(socket, id);
  expect((await viewer.attach()).ok).toBe(true);
  await viewer.waitFor("tutor>");
  const out: Record<string, string> = {};
  for (const name of names) {
    const line = new RegExp(`env ${name}\\r?\\n([^\\r\\n]+)\\r?\\n`);
    viewer.input(`env ${name}\r`);
    await viewer.waitFor(line);
    out[name] = line.exec(viewer.text)![1]!;
  }
  socket.disconnect();
  return out;
}

/** What a socket handshake gets: connected, or the refusal. */
export async function handshake(
  url: string,
  headers: Record<string, string>,
  transport: "websocket" | "polling" = "websocket",
): Promise<"connected" | "refused"> {
  try {
    const s = await connect(url, { headers, transport, insecure: true });
    s.disconnect();
    return "connected";
  } catch {
    return "refused";
  }
}

/** No stack trace, no file path, in anything the server answers. */
export function expectNoLeak(body: string): void {
  expect(body).not.toMatch(/\n\s+at \S+ \(|node_modules|\/work\/|\/home\/|\/tmp\/|\.tsx?:\d+/);
}
