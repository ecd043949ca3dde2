// callApi against a real HTTP server on 127.0.0.1 (and a closed port), through the global fetch.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UNREACHABLE, callApi, refusedSentence } from "./api-client";

interface Echo {
  method: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  base64: string;
}

let server: http.Server;
let base = "";

function reply(res: http.ServerResponse, status: number, body: string, type = "application/json"): void {
  res.writeHead(status, { "content-type": type });
  res.end(body);
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const bytes = Buffer.concat(chunks);
      const body = bytes.toString("utf8");
      switch (new URL(req.url ?? "/", "http://x").pathname) {
        case "/ok":
          return reply(res, 200, JSON.stringify({ cards: ["a", "b"], dueCount: 2 }));
        case "/created":
          return reply(res, 201, JSON.stringify({ name: "photo.png" }));
        case "/echo":
          return reply(
            res,
            200,
            JSON.stringify({ method: req.method ?? "", headers: req.headers, body, base64: bytes.toString("base64") } satisfies Echo),
          );
        case "/refuse-json":
          return reply(res, 409, JSON.stringify({ error: "That card was reviewed elsewhere meanwhile.", code: "stale" }));
        case "/refuse-empty-error":
          return reply(res, 400, JSON.stringify({ error: "  " }));
        case "/refuse-html":
          return reply(res, 502, "<html><body>Bad gateway</body></html>", "text/html");
        case "/cut":
          return reply(res, 200, '{"cards": [');
        default:
          return reply(res, 404, "");
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** A port nothing listens on: taken, then given back. */
async function closedPort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe("callApi", () => {
  it("gives a JSON success's body and status", async () => {
    expect(await callApi<{ dueCount: number }>(`${base}/ok`)).toEqual({ ok: true, status: 200, value: { cards: ["a", "b"], dueCount: 2 } });
    expect(await callApi(`${base}/created`, { method: "POST" })).toEqual({ ok: true, status: 201, value: { name: "photo.png" } });
  });

  it("gives a refusal's own sentence, its status and its body", async () => {
    expect(await callApi(`${base}/refuse-json`, { method: "POST", body: {} })).toEqual({
      ok: false,
      status: 409,
      error: "That card was reviewed elsewhere meanwhile.",
      body: { error: "That card was reviewed elsewhere meanwhile.", code: "stale" },
    });
  });

  it("says what happened and what to do when a refusal has no sentence (not JSON, none, or a blank one)", async () => {
    const html = await callApi(`${base}/refuse-html`);
    expect(html).toEqual({ ok: false, status: 502, error: refusedSentence(502) });
    expect(refusedSentence(502)).toMatch(/^The StudyLoop server could not answer \(HTTP 502\)\. Try again in a moment/);
    expect(await callApi(`${base}/nowhere`)).toEqual({ ok: false, status: 404, error: refusedSentence(404) });
    expect(refusedSentence(404)).toContain("Reload the page");
    const blank = await callApi(`${base}/refuse-empty-error`);
    expect(blank).toMatchObject({ ok: false, status: 400, error: refusedSentence(400) });
    expect(refusedSentence(400)).toBe("The StudyLoop server refused the request (HTTP 400). Reload the page and try again.");
  });

  it("uses the caller's sentence for a refusal without one, never over the server's own", async () => {
    const refused = (status: number) => `Could not save (HTTP ${status}).`;
    expect(await callApi(`${base}/refuse-html`, { refused })).toMatchObject({ ok: false, error: "Could not save (HTTP 502)." });
    expect(await callApi(`${base}/refuse-json`, { refused })).toMatchObject({ error: "That card was reviewed elsewhere meanwhile." });
  });

  it("says the server cannot be reached when nothing listens, without throwing", async () => {
    const url = `http://127.0.0.1:${await closedPort()}/api/session/state`;
    expect(await callApi(url, { cache: "no-store" })).toEqual({ ok: false, error: UNREACHABLE });
    expect(UNREACHABLE).toBe("Could not reach the StudyLoop server. Is it still running? Try again in a moment.");
    const own = "Could not reach the StudyLoop server, so the session was not ended. Try again when it is back.";
    expect(await callApi(url, { method: "POST", unreachable: own })).toEqual({ ok: false, error: own });
  });

  it("takes a 2xx whose JSON did not arrive whole for no answer", async () => {
    expect(await callApi(`${base}/cut`)).toEqual({ ok: false, error: UNREACHABLE });
  });

  it("sends a body as JSON with its content type, by POST unless told", async () => {
    const posted = await callApi<Echo>(`${base}/echo`, { body: { topic: "closures", energy: 5 } });
    if (!posted.ok) throw new Error(posted.error);
    expect(posted.value.method).toBe("POST");
    expect(posted.value.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(posted.value.body)).toEqual({ topic: "closures", energy: 5 });
    const patched = await callApi<Echo>(`${base}/echo`, { method: "PATCH", body: { status: "resolved" } });
    expect(patched.ok && [patched.value.method, patched.value.body]).toEqual(["PATCH", '{"status":"resolved"}']);
  });

  it("sends a GET with no body and no content type, uncached when asked", async () => {
    const got = await callApi<Echo>(`${base}/echo`, { cache: "no-store" });
    if (!got.ok) throw new Error(got.error);
    expect(got.value.method).toBe("GET");
    expect(got.value.body).toBe("");
    expect(got.value.headers["content-type"]).toBeUndefined();
    expect(got.value.headers["cache-control"]).toBe("no-cache");
    const bare = await callApi<Echo>(`${base}/echo`, { method: "DELETE" });
    expect(bare.ok && [bare.value.method, bare.value.body, bare.value.headers["content-type"]]).toEqual(["DELETE", "", undefined]);
  });

  it("sends a file as its raw bytes", async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const file = new Blob([png]);
    const sent = await callApi<Echo>(`${base}/echo`, { file });
    if (!sent.ok) throw new Error(sent.error);
    expect(sent.value.method).toBe("POST");
    expect(sent.value.headers["content-type"]).toBe("application/octet-stream");
    expect(sent.value.base64).toBe(Buffer.from(png).toString("base64"));
  });
});
