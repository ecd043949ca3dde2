// LAN access (issue 6): pairing, auth on every request and socket, Origin checks, limits, headers,
// and the phone. Every request goes to loopback: with --lan pairing is required from every address,
// loopback included, so loopback is where all of this can be checked. Nothing is ever sent to the
// machine's LAN addresses.
import { test, expect, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT, makeDataDir, startServer, type StartedServer } from "./support/server";
import { connect, type TestSocket } from "./support/socket";
import { expectNoLeak, freshToken, handshake, json, pairWith, send, startAndReadEnv, state, tokenOf, type Reply } from "./support/hostile";
import { expectTerminalToContain, terminalText } from "./support/terminal";
import { hydrated } from "./support/page";

// ---------- helpers ----------

/** The addresses the server's port is listening on, from the kernel's socket tables. */
function listeningAddresses(port: number): string[] {
  const out: string[] = [];
  for (const file of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    if (!fs.existsSync(file)) continue;
    for (const line of fs.readFileSync(file, "utf8").split("\n").slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 4 || cols[3] !== "0A") continue; // 0A = LISTEN
      const [hexAddr, hexPort] = cols[1]!.split(":");
      if (Number.parseInt(hexPort!, 16) !== port) continue;
      out.push(
        hexAddr!.length === 8
          ? hexAddr!
              .match(/../g)!
              .reverse()
              .map((h) => Number.parseInt(h, 16))
              .join(".")
          : `ipv6:${hexAddr}`,
      );
    }
  }
  return out;
}

const portOf = (url: string) => Number(new URL(url).port);

const PHONE = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 3,
  isMobile: true,
  hasTouch: true,
  userAgent: "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36",
};

/** Collects CSP violations and page errors: hydration under the CSP must not need anything blocked. */
function watchPage(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (msg) => {
    if (/Content Security Policy|Refused to (execute|load|apply|connect)/i.test(msg.text())) problems.push(msg.text());
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  return problems;
}

async function shot(page: Page, name: string): Promise<void> {
  const dir = process.env.STUDYLOOP_SHOTS_DIR ?? path.join(ROOT, "test-results", "phone");
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: false });
}

// ---------- the LAN server ----------

let lan: StartedServer;
/** The laptop: paired through the printed link, and used to check the server keeps serving. */
let laptop: string;

test.beforeAll(async () => {
  lan = await startServer({ args: ["--lan"] });
  expect(lan.pairLink, lan.output()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/pair\?token=[A-Za-z0-9_-]{43}$/);
  laptop = await pairWith(lan, tokenOf(lan.pairLink!), "Laptop");
});
test.afterAll(async () => {
  await lan.stop();
});

/** The server still answers a paired device. */
async function alive(server: StartedServer = lan, cookie = laptop): Promise<void> {
  const res = await send(`${server.url}/api/session/state`, { headers: { cookie } });
  expect(res.status, res.body).toBe(200);
}

test.describe("--lan: the printed link and the bound address", () => {
  test("binds every interface and prints a link and a QR code per LAN address", async () => {
    expect(listeningAddresses(portOf(lan.url))).toEqual(["0.0.0.0"]);
    const out = lan.output();
    expect(out).toMatch(/Pairing is required on every device, this one included/);
    expect(out).toMatch(/This machine: http:\/\/127\.0\.0\.1:\d+\n\s+pair: http:\/\/127\.0\.0\.1:\d+\/pair\?token=/);
    const lanLines = [...out.matchAll(/LAN \((\S+)\): (http:\/\/\S+)\n\s+pair: (\S+)/g)];
    for (const [, , base, link] of lanLines) {
      expect(link!.startsWith(`${base}/pair?token=`)).toBe(true);
    }
    const interfaces = Object.values(os.networkInterfaces())
      .flat()
      .filter((i) => i && !i.internal && i.family === "IPv4");
    expect(lanLines).toHaveLength(interfaces.length);
    // A terminal QR code is drawn with half blocks, one per LAN address.
    if (interfaces.length > 0) expect(out).toContain("▄");
  });
});

test.describe("hostile requests: each a clean refusal, nothing stored, the server keeps serving", () => {
  test("no cookie: 401 on pages, the API, static files and the socket handshake", async () => {
    const before = state(lan.dataDir);
    const page = await send(`${lan.url}/`, { headers: { accept: "text/html" } });
    expect(page.status).toBe(401);
    expect(page.headers["content-type"]).toMatch(/text\/html/);
    expect(page.body).toContain("This device is not paired");
    expect(page.body).not.toMatch(/<script/i);
    for (const url of ["/api/session/state", "/api/devices", "/study", "/devices", "/_next/static/chunks/x.js", "/favicon.ico"]) {
      const res = await send(`${lan.url}${url}`);
      expect(res.status, url).toBe(401);
      expect(JSON.parse(res.body).error).toMatch(/not paired/);
    }
    const start = await send(`${lan.url}/api/session/start`, { method: "POST", ...json({ topic: "x", energy: 5, agent: "tutor" }) });
    expect(start.status).toBe(401);
    expect(await handshake(lan.url, {})).toBe("refused");
    expect(await handshake(lan.url, {}, "polling")).toBe("refused");
    expect(state(lan.dataDir)).toBe(before);
    await alive();
  });

  test("a forged cookie is refused like none", async () => {
    const before = state(lan.dataDir);
    const name = laptop.split("=")[0]!;
    for (const cookie of [
      `${name}=${"A".repeat(43)}`,
      `${name}=' OR 1=1 --`,
      `${name}=${laptop.split("=")[1]!.slice(0, -1)}B`,
      `studyloop_device_1=${laptop.split("=")[1]}`, // the right secret under another server's name
    ]) {
      expect((await send(`${lan.url}/api/session/state`, { headers: { cookie } })).status, cookie).toBe(401);
      expect(await handshake(lan.url, { cookie })).toBe("refused");
    }
    expect(state(lan.dataDir)).toBe(before);
    await alive();
  });

  test("a reused pairing token is refused; the first use paired exactly one device", async () => {
    const token = await freshToken(lan, laptop);
    const first = await pairWith(lan, token, "Once");
    const before = state(lan.dataDir);
    const again = await send(`${lan.url}/pair`, { method: "POST", ...json({ token, name: "Twice" }) });
    expect(again.status).toBe(410);
    expect(JSON.parse(again.body).error).toMatch(/already been used/);
    expect(again.headers["set-cookie"]).toBeUndefined();
    const page = await send(`${lan.url}/pair?token=${token}`, { headers: { accept: "text/html" } });
    expect(page.status).toBe(410);
    expect(page.body).toContain("already been used");
    expect(state(lan.dataDir)).toBe(before);
    await alive(lan, first);
  });

  test("a revoked device's cookie and sockets are refused; its open socket is closed at once", async () => {
    const cookie = await pairWith(lan, await freshToken(lan, laptop), "To revoke");
    const socket = await connect(lan.url, { headers: { cookie } });
    const closed = new Promise<{ reason: string; at: number }>((resolve) =>
      socket.on("disconnect", (reason) => resolve({ reason, at: Date.now() })),
    );
    const list = JSON.parse((await send(`${lan.url}/api/devices`, { headers: { cookie: laptop } })).body) as {
      devices: { id: string; name: string }[];
    };
    const id = list.devices.find((d) => d.name === "To revoke")!.id;
    const revokedAt = Date.now();
    const revoke = await send(`${lan.url}/api/devices/${id}/revoke`, { method: "POST", headers: { cookie: laptop, origin: lan.url } });
    expect(revoke.status, revoke.body).toBe(200);
    const { reason, at } = await closed;
    expect(reason).toBe("io server disconnect");
    expect(at - revokedAt).toBeLessThan(1_000);
    const before = state(lan.dataDir);
    expect((await send(`${lan.url}/api/session/state`, { headers: { cookie } })).status).toBe(401);
    expect(await handshake(lan.url, { cookie })).toBe("refused");
    expect((await send(`${lan.url}/api/devices/pairing`, { method: "POST", headers: { cookie } })).status).toBe(401);
    expect(state(lan.dataDir)).toBe(before);
    await alive();
  });

  test("a wrong Origin is refused on a POST and on a socket, even with a paired cookie", async () => {
    const before = state(lan.dataDir);
    for (const origin of [
      "http://evil.example",
      "null",
      `http://127.0.0.1:${portOf(lan.url) + 1}`,
      "https://127.0.0.1:" + portOf(lan.url),
    ]) {
      const res = await send(`${lan.url}/api/session/start`, {
        method: "POST",
        ...json({ topic: "csrf", energy: 5, agent: "tutor" }, { cookie: laptop, origin }),
      });
      expect(res.status, origin).toBe(403);
      expect(JSON.parse(res.body).error).toMatch(/Cross-site requests are refused/);
      expect((await send(`${lan.url}/api/session/end`, { method: "POST", headers: { cookie: laptop, origin } })).status).toBe(403);
      expect(await handshake(lan.url, { cookie: laptop, origin })).toBe("refused");
      expect(await handshake(lan.url, { cookie: laptop, origin }, "polling")).toBe("refused");
    }
    // A browser's cross-site fetch is refused by Sec-Fetch-Site, whatever its method.
    expect(
      (
        await send(`${lan.url}/api/session/state`, {
          headers: { cookie: laptop, "sec-fetch-site": "cross-site", "sec-fetch-mode": "cors" },
        })
      ).status,
    ).toBe(403);
    // The same requests from the served origin pass.
    expect(await handshake(lan.url, { cookie: laptop, origin: lan.url })).toBe("connected");
    expect(state(lan.dataDir)).toBe(before);
    await alive();
  });

  test("oversized, chunked and malformed bodies are refused", async () => {
    const before = state(lan.dataDir);
    const headers = { cookie: laptop, origin: lan.url };
    const big = JSON.stringify({ topic: "x".repeat(100 * 1024), energy: 5, agent: "tutor" });
    const cases: [string, Promise<Reply>, number, RegExp][] = [
      [
        "a 100 KB JSON body",
        send(`${lan.url}/api/session/start`, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: big }),
        413,
        /too large/,
      ],
      [
        "a chunked body",
        send(`${lan.url}/api/session/start`, {
          method: "POST",
          headers: { ...headers, "content-type": "application/json" },
          body: big,
          chunked: true,
        }),
        411,
        /Content-Length/,
      ],
      [
        "malformed JSON",
        send(`${lan.url}/api/session/start`, {
          method: "POST",
          headers: { ...headers, "content-type": "application/json" },
          body: "{topic:",
        }),
        400,
        /not valid JSON/,
      ],
      [
        "a JSON array",
        send(`${lan.url}/api/parking`, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: "[1]" }),
        400,
        /JSON object/,
      ],
      [
        "a form instead of JSON",
        send(`${lan.url}/api/parking`, {
          method: "POST",
          headers: { ...headers, "content-type": "application/x-www-form-urlencoded" },
          body: "text=hi",
        }),
        415,
        /JSON/,
      ],
      [
        "an oversized pairing body",
        send(`${lan.url}/pair`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ token: "x", name: "n".repeat(8_000) }),
        }),
        413,
        /too large/,
      ],
      [
        "a deeply nested JSON body",
        send(`${lan.url}/api/parking`, {
          method: "POST",
          headers: { ...headers, "content-type": "application/json" },
          body: "[".repeat(20_000) + "]".repeat(20_000),
        }),
        400,
        /JSON/,
      ],
    ];
    for (const [name, pending, status, message] of cases) {
      const res = await pending;
      expect(res.status, `${name}: ${res.body}`).toBe(status);
      expect(JSON.parse(res.body).error, name).toMatch(message);
      expectNoLeak(res.body);
    }
    expect(state(lan.dataDir)).toBe(before);
    await alive();
  });

  test("path traversal in agent names, topics and paths is refused without leaking a file", async () => {
    const before = state(lan.dataDir);
    const headers = { cookie: laptop, origin: lan.url };
    for (const agent of ["../../bin/sh", "..%2f..%2fbin%2fsh", "/bin/sh", "tutor/../../x"]) {
      const res = await send(`${lan.url}/api/session/start`, { method: "POST", ...json({ topic: "t", energy: 5, agent }, headers) });
      expect(res.status, agent).toBe(400);
      expect(JSON.parse(res.body).error).toMatch(/Agent must be an agent name/);
    }
    // A topic is text: marking one needs a live session, and none is.
    const mark = await send(`${lan.url}/api/session/topics`, {
      method: "POST",
      ...json({ topic: "../../../etc/passwd", status: "win" }, headers),
    });
    expect(mark.status).toBeGreaterThanOrEqual(400);
    expect(mark.status).toBeLessThan(500);
    for (const url of [
      "/sessions/..%2F..%2F..%2Fetc%2Fpasswd",
      "/sessions/../../../../etc/passwd",
      "/api/sessions/..%2F..%2Fetc%2Fpasswd",
      "/_next/static/..%2F..%2F..%2F..%2Fetc%2Fpasswd",
      "/_next/static/chunks/..%2F..%2F..%2Fpackage.json",
      "/%2e%2e/%2e%2e/etc/passwd",
      "/api/devices/..%2F..%2Fetc/revoke",
      "/api/sessions?topic=..%2F..%2F..%2Fetc%2Fpasswd",
    ]) {
      const res = await send(`${lan.url}${url}`, { headers: { cookie: laptop } });
      expect(res.status, url).toBeLessThan(500);
      expect(res.body, url).not.toMatch(/root:x:0:0|"dependencies"/);
      expectNoLeak(res.body);
    }
    expect(state(lan.dataDir)).toBe(before);
    await alive();
  });

  test("the agent's session token is the one way in without a device, and only to the API", async () => {
    const token = (await startAndReadEnv(lan, laptop, ["STUDYLOOP_SESSION_TOKEN"])).STUDYLOOP_SESSION_TOKEN!;
    expect(token).toMatch(/^\S{20,}$/);
    try {
      const parked = await send(`${lan.url}/api/parking`, {
        method: "POST",
        ...json({ text: "from the agent" }, { authorization: `Bearer ${token}` }),
      });
      expect(parked.status, parked.body).toBe(201);
      const before = state(lan.dataDir);
      expect(
        (await send(`${lan.url}/api/parking`, { method: "POST", ...json({ text: "forged" }, { authorization: "Bearer not-the-token" }) }))
          .status,
      ).toBe(401);
      expect((await send(`${lan.url}/study`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
      expect(await handshake(lan.url, { authorization: `Bearer ${token}` })).toBe("refused");
      expect(state(lan.dataDir)).toBe(before);
    } finally {
      await send(`${lan.url}/api/session/end`, { method: "POST", headers: { cookie: laptop, origin: lan.url } });
    }
  });

  test("a spoofed device header from the client is ignored", async () => {
    const res = await send(`${lan.url}/api/devices/me`, { headers: { "x-studyloop-device": "00000000-0000-0000-0000-000000000000" } });
    expect(res.status).toBe(401);
    const me = JSON.parse(
      (await send(`${lan.url}/api/devices/me`, { headers: { cookie: laptop, "x-studyloop-device": "forged" } })).body,
    ) as { device: string };
    expect(me.device).toMatch(/^[0-9a-f-]{36}$/);
  });

  test("security headers are on every response: pages, refusals, static files, the socket transport", async () => {
    const staticFile = /\/_next\/static\/[^"]+\.js/.exec((await send(`${lan.url}/`, { headers: { cookie: laptop } })).body)![0];
    const replies = await Promise.all([
      send(`${lan.url}/`, { headers: { cookie: laptop } }),
      send(`${lan.url}/`),
      send(`${lan.url}${staticFile}`, { headers: { cookie: laptop } }),
      send(`${lan.url}/pair?token=nope`),
      send(`${lan.url}/no-such-page`, { headers: { cookie: laptop } }),
      send(`${lan.url}/socket.io/?EIO=4&transport=polling`, { headers: { cookie: laptop } }),
    ]);
    for (const res of replies) {
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(res.headers["referrer-policy"]).toBe("same-origin");
      expect(res.headers["x-frame-options"]).toBe("DENY");
      expect(String(res.headers["content-security-policy"])).toMatch(/frame-ancestors 'none'/);
      expect(String(res.headers["content-security-policy"])).not.toMatch(/script-src[^;]*unsafe-inline/);
    }
    expect(replies[5]!.status).toBe(200);
    // Each page response has its own nonce, and every script tag Next wrote carries it.
    const [a, b] = [replies[0]!, await send(`${lan.url}/`, { headers: { cookie: laptop } })];
    const nonce = /'nonce-([^']+)'/.exec(String(a.headers["content-security-policy"]))![1]!;
    expect(String(b.headers["content-security-policy"])).not.toContain(nonce);
    const scripts = a.body.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
  });

  test("an expired pairing link is refused (links expire after STUDYLOOP_PAIRING_TOKEN_SECONDS)", async () => {
    const short = await startServer({ args: ["--lan"], env: { STUDYLOOP_PAIRING_TOKEN_SECONDS: "1" } });
    try {
      expect(short.output()).toMatch(/works once, for\n1 second;/);
      await new Promise((r) => setTimeout(r, 1_500));
      const before = state(short.dataDir);
      const token = tokenOf(short.pairLink!);
      const page = await send(`${short.url}/pair?token=${token}`, { headers: { accept: "text/html" } });
      expect(page.status).toBe(410);
      expect(page.body).toContain("expired (links work for 1 second)");
      const post = await send(`${short.url}/pair`, { method: "POST", ...json({ token }) });
      expect(post.status).toBe(410);
      expect(post.headers["set-cookie"]).toBeUndefined();
      expect(state(short.dataDir)).toBe(before);
    } finally {
      await short.stop();
    }
  });

  test("a flood of pairing attempts is rate-limited per address; the server keeps serving", async () => {
    // Its own server: the flood locks 127.0.0.1 out of pairing there for 15 minutes.
    const flooded = await startServer({ args: ["--lan"] });
    try {
      const cookie = await pairWith(flooded, tokenOf(flooded.pairLink!), "Laptop");
      const spare = await freshToken(flooded, cookie);
      const before = state(flooded.dataDir);
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) {
        const guess = `guess-${i}-${"x".repeat(40)}`;
        const res =
          i % 2
            ? await send(`${flooded.url}/pair?token=${guess}`)
            : await send(`${flooded.url}/pair`, { method: "POST", ...json({ token: guess }) });
        statuses.push(res.status);
        if (res.status === 429) expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
      }
      expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
      expect(statuses.slice(10)).toEqual(Array(30).fill(429));
      // Locked out: even a valid token is refused from this address, and is not used up.
      const valid = await send(`${flooded.url}/pair`, { method: "POST", ...json({ token: spare }) });
      expect(valid.status).toBe(429);
      expect(JSON.parse(valid.body).error).toMatch(/Too many failed pairing attempts/);
      expect(state(flooded.dataDir)).toBe(before);
      await alive(flooded, cookie);
      const page = await send(`${flooded.url}/`, { headers: { cookie } });
      expect(page.status).toBe(200);
    } finally {
      await flooded.stop();
    }
  });
});

test.describe("without --lan", () => {
  let local: StartedServer;
  test.beforeAll(async () => {
    local = await startServer();
  });
  test.afterAll(async () => {
    await local.stop();
  });

  test("listens on loopback only, needs no pairing, and answers loopback names only", async ({ page }) => {
    expect(listeningAddresses(portOf(local.url))).toEqual(["127.0.0.1"]);
    expect(local.pairLink).toBeUndefined();
    expect(local.output()).not.toContain("pair:");
    expect((await send(`${local.url}/api/session/state`)).status).toBe(200);
    expect(await handshake(local.url, {})).toBe("connected");
    // DNS rebinding: a page on evil.example resolved to 127.0.0.1 sends its own Host.
    const rebound = await send(`${local.url}/api/session/state`, { headers: { host: `evil.example:${portOf(local.url)}` } });
    expect(rebound.status).toBe(421);
    expect(
      await handshake(local.url, { host: `evil.example:${portOf(local.url)}`, origin: `http://evil.example:${portOf(local.url)}` }),
    ).toBe("refused");
    // Cross-site requests are refused here too: a page elsewhere cannot end the learner's session.
    expect((await send(`${local.url}/api/session/end`, { method: "POST", headers: { origin: "http://evil.example" } })).status).toBe(403);
    // "Pair a device" explains there is nothing to pair.
    await page.goto(local.url);
    await hydrated(page);
    await page.getByRole("button", { name: "Pair a device" }).click();
    await expect(page.getByTestId("pairing-not-needed")).toBeVisible();
  });

  test("--allow-origin trusts the named origin and no other", async () => {
    const proxied = await startServer({ args: ["--allow-origin", "https://study.example.org"] });
    try {
      const port = portOf(proxied.url);
      expect(
        (await send(`${proxied.url}/api/session/end`, { method: "POST", headers: { origin: "https://study.example.org" } })).status,
      ).toBe(404);
      expect(
        (await send(`${proxied.url}/api/session/end`, { method: "POST", headers: { origin: "https://other.example.org" } })).status,
      ).toBe(403);
      expect((await send(`${proxied.url}/api/session/state`, { headers: { host: "study.example.org" } })).status).toBe(200);
      expect((await send(`${proxied.url}/api/session/state`, { headers: { host: `other.example.org:${port}` } })).status).toBe(421);
    } finally {
      await proxied.stop();
    }
  });
});

// ---------- the phone ----------

async function phoneContext(browser: Browser, size: { width: number; height: number } = PHONE.viewport): Promise<BrowserContext> {
  return browser.newContext({ ...PHONE, viewport: size });
}

/** Pairs a phone through a link the way a learner does: open it, name the device, tap the button. */
async function pairPhone(page: Page, link: string, name: string, opts: { touch: boolean } = { touch: true }): Promise<void> {
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Pair this device" })).toBeVisible();
  await shot(page, `pair-page-${page.viewportSize()!.width}`);
  await page.getByLabel("Name this device").fill(name);
  const button = page.getByRole("button", { name: "Pair this device" });
  await (opts.touch ? button.tap() : button.click());
  await expect(page).toHaveURL(/\/$/);
  await hydrated(page);
}

async function keyBar(page: Page, name: string): Promise<void> {
  await page.getByTestId("key-bar").getByRole("button", { name, exact: true }).tap();
}

test.describe("the phone", () => {
  test.afterEach(async () => {
    await send(`${lan.url}/api/session/end`, { method: "POST", headers: { cookie: laptop } });
  });

  test("pairs through the link, studies through the key bar, and is disconnected at once when revoked", async ({ browser }) => {
    const context = await phoneContext(browser);
    const page = await context.newPage();
    const problems = watchPage(page);
    await pairPhone(page, `${lan.url}/pair?token=${await freshToken(lan, laptop)}`, "Test phone");
    const cookies = await context.cookies();
    const cookie = cookies.find((c) => c.name.startsWith("studyloop_device_"))!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Strict", secure: false });

    await page.getByRole("link", { name: "Study", exact: true }).tap();
    await hydrated(page);
    await page.locator("#topic").fill("phone study");
    await page.getByRole("button", { name: "Start session" }).tap();
    await expect(page.getByTestId("console-status")).toHaveText("live");
    await expectTerminalToContain(page, "tutor>");
    await expect(page.getByTestId("key-bar")).toBeVisible();

    // y, Enter: the tutor echoes the line.
    await keyBar(page, "y");
    await keyBar(page, "Enter");
    await expectTerminalToContain(page, "you said: y");
    // Typed on the phone's keyboard, ended with the bar's Enter.
    await page.getByTestId("terminal").tap();
    await page.keyboard.type("hello from the phone");
    await keyBar(page, "Enter");
    await expectTerminalToContain(page, "you said: hello from the phone");
    // Sticky Ctrl, then c from the keyboard: an interrupt; the bar's ^C likewise.
    await keyBar(page, "Control (applies to the next key)");
    await expect(page.getByRole("button", { name: "Control (applies to the next key)" })).toHaveAttribute("aria-pressed", "true");
    await page.keyboard.type("c");
    await expect(page.getByRole("button", { name: "Control (applies to the next key)" })).toHaveAttribute("aria-pressed", "false");
    await expectTerminalToContain(page, "^C interrupted");
    await page.keyboard.type("abc");
    await keyBar(page, "Control-C (interrupt)");
    await keyBar(page, "n");
    await keyBar(page, "Enter");
    await expectTerminalToContain(page, "you said: n");
    // An arrow and Esc reach the program: the pty's line discipline echoes their bytes as ^[[A^[.
    await keyBar(page, "Up arrow");
    await keyBar(page, "Escape");
    await expectTerminalToContain(page, "tutor> ^[[A^[");
    await keyBar(page, "Control-C (interrupt)");

    // The terminal fits the phone: its frame within the screen, the key bar visible below it.
    const frame = (await page.getByTestId("terminal").boundingBox())!;
    const bar = (await page.getByTestId("key-bar").boundingBox())!;
    expect(frame.x + frame.width).toBeLessThanOrEqual(390);
    expect(bar.y).toBeGreaterThanOrEqual(frame.y + frame.height - 1);
    await page.getByTestId("terminal").scrollIntoViewIfNeeded();
    await shot(page, "study-live-390");
    expect(problems).toEqual([]);

    // Revoke the phone from the laptop: its socket closes at once, and the page says why.
    const list = JSON.parse((await send(`${lan.url}/api/devices`, { headers: { cookie: laptop } })).body) as {
      devices: { id: string; name: string }[];
    };
    const id = list.devices.find((d) => d.name === "Test phone")!.id;
    expect(
      (await send(`${lan.url}/api/devices/${id}/revoke`, { method: "POST", headers: { cookie: laptop, origin: lan.url } })).status,
    ).toBe(200);
    await expect(page.getByRole("heading", { name: "This device is not paired" })).toBeVisible({ timeout: 5_000 });
    await shot(page, "revoked-390");
    await context.close();
  });

  test("the phone does not shrink the laptop's session until it types; the keyboard and the background are handled", async ({
    browser,
  }) => {
    // The laptop: a desktop browser, paired too.
    const desk = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const laptopPage = await desk.newPage();
    await pairPhone(laptopPage, `${lan.url}/pair?token=${await freshToken(lan, laptop)}`, "Laptop browser", { touch: false });
    await laptopPage.goto(`${lan.url}/study`);
    await hydrated(laptopPage);
    await laptopPage.locator("#topic").fill("shared");
    await laptopPage.getByRole("button", { name: "Start session" }).click();
    await expect(laptopPage.getByTestId("console-status")).toHaveText("live");
    await laptopPage.getByTestId("terminal").click();
    await laptopPage.keyboard.type("size\r");
    await expectTerminalToContain(laptopPage, /size \d+x\d+/);
    const laptopSize = /size (\d+x\d+)/.exec(await terminalText(laptopPage))![1]!;
    const laptopCols = Number(laptopSize.split("x")[0]);
    expect(laptopCols).toBeGreaterThan(70);

    const context = await phoneContext(browser, { width: 375, height: 667 });
    const page = await context.newPage();
    const problems = watchPage(page);
    await pairPhone(page, `${lan.url}/pair?token=${await freshToken(lan, laptop)}`, "Small phone");
    await page.goto(`${lan.url}/study`);
    await expect(page.getByTestId("console-status")).toHaveText("live");
    // Watching only: the laptop typed last, so its size stands.
    await laptopPage.keyboard.type("size\r");
    await expect
      .poll(async () => [...(await terminalText(laptopPage)).matchAll(/size (\d+x\d+)/g)].map((m) => m[1]).at(-1))
      .toBe(laptopSize);

    // The phone types: the session takes the phone's size (the device that typed last).
    await keyBar(page, "Enter");
    await page.getByTestId("terminal").tap();
    await page.keyboard.type("size");
    await keyBar(page, "Enter");
    await expect
      .poll(async () => [...(await terminalText(page)).matchAll(/size (\d+)x(\d+)/g)].map((m) => Number(m[1])).at(-1))
      .toBeLessThan(60);
    const phoneCols = await page.evaluate(() => (window as unknown as { __studyloopTerm: { cols: number } }).__studyloopTerm.cols);
    expect(phoneCols).toBeLessThan(60);
    await expectTerminalToContain(laptopPage, /size \d\dx\d\d\n/);
    await shot(laptopPage, "laptop-after-phone-typed-1280");

    // The keyboard opens: the visible height shrinks; the terminal gets fewer rows, the key bar stays on screen.
    const rowsBefore = await page.evaluate(() => (window as unknown as { __studyloopTerm: { rows: number } }).__studyloopTerm.rows);
    await page.setViewportSize({ width: 375, height: 380 });
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { __studyloopTerm: { rows: number } }).__studyloopTerm.rows))
      .toBeLessThan(rowsBefore);
    const bar = (await page.getByTestId("key-bar").boundingBox())!;
    expect(bar.y + bar.height).toBeLessThanOrEqual(380);
    // Nothing covers it (the study page's fixed "Park a thought" dock sits below it, not over it).
    const uncovered = await page.evaluate(() => {
      const keys = [...document.querySelectorAll<HTMLElement>("[data-testid=key-bar] button")];
      return keys.every((key) => {
        const r = key.getBoundingClientRect();
        return key.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2));
      });
    });
    expect(uncovered).toBe(true);
    await shot(page, "study-keyboard-open-375");
    await page.setViewportSize({ width: 375, height: 667 });

    // To the background and back: the page reconnects and resumes from the last output it saw.
    const before = await terminalText(page);
    await page.evaluate(() => {
      Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" });
      document.dispatchEvent(new Event("visibilitychange"));
    });
    await laptopPage.keyboard.type("while the phone slept\r");
    await page.waitForTimeout(3_200);
    await page.evaluate(() => {
      Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "visible" });
      document.dispatchEvent(new Event("visibilitychange"));
    });
    await expect(page.getByTestId("console-status")).toHaveText("live");
    await expectTerminalToContain(page, "you said: while the phone slept");
    await keyBar(page, "y");
    await keyBar(page, "Enter");
    await expectTerminalToContain(page, "you said: y");
    // Resumed, not replayed twice: what the phone had is still there once.
    const after = await terminalText(page);
    expect(after.split("you said: while the phone slept").length - 1).toBe(1);
    expect(after.startsWith(before.split("\n")[0]!)).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
    await desk.close();
  });

  for (const size of [
    { width: 375, height: 667 },
    { width: 390, height: 844 },
  ]) {
    test(`every page hydrates under the CSP and fits ${size.width}x${size.height}`, async ({ browser }) => {
      const context = await phoneContext(browser, size);
      const page = await context.newPage();
      const problems = watchPage(page);
      await pairPhone(page, `${lan.url}/pair?token=${await freshToken(lan, laptop)}`, `Phone ${size.width}`);
      // An ended session, so the history and a session page have something to show.
      const started = await send(`${lan.url}/api/session/start`, {
        method: "POST",
        ...json(
          { topic: "a rather long topic name about closures and scopes", energy: 6, agent: "tutor" },
          { cookie: laptop, origin: lan.url },
        ),
      });
      expect(started.status, started.body).toBe(201);
      const sessionId = (JSON.parse(started.body) as { session: { id: string } }).session.id;
      await send(`${lan.url}/api/parking`, {
        method: "POST",
        ...json({ text: "look up hoisting later" }, { cookie: laptop, origin: lan.url }),
      });
      await send(`${lan.url}/api/session/end`, { method: "POST", headers: { cookie: laptop, origin: lan.url } });

      const pages: [string, string][] = [
        ["dashboard", "/"],
        ["study", "/study"],
        ["devices", "/devices"],
        ["parking", "/parking"],
        ["session", `/sessions/${sessionId}`],
        ["not-found", "/no-such-page"],
      ];
      for (const [name, url] of pages) {
        await page.goto(`${lan.url}${url}`);
        await hydrated(page);
        // Nothing wider than the screen: no sideways scrolling.
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${name} is wider than the screen`).toBeLessThanOrEqual(0);
        await shot(page, `${name}-${size.width}`);
      }
      // "Pair a device" on the dashboard: a QR code per LAN address, and a link for this computer.
      await page.goto(lan.url);
      await hydrated(page);
      await page.getByRole("button", { name: "Pair a device" }).tap();
      await expect(page.getByRole("button", { name: "New links" })).toBeVisible();
      const qrCount = await page.getByTestId("pair-link").count();
      const lanCount = Object.values(os.networkInterfaces())
        .flat()
        .filter((i) => i && !i.internal && i.family === "IPv4").length;
      expect(qrCount).toBe(lanCount);
      if (qrCount > 0) await expect(page.locator("img.qr").first()).toBeVisible();
      await page.getByTestId("pair-device").scrollIntoViewIfNeeded();
      await shot(page, `pair-a-device-${size.width}`);
      // The devices page lists this phone, marked as this device.
      await page.goto(`${lan.url}/devices`);
      await expect(page.getByTestId("device").filter({ hasText: `Phone ${size.width}` })).toContainText("this device");
      expect(problems).toEqual([]);
      await context.close();
    });
  }
});

// ---------- TLS ----------

test.describe("--tls-cert and --tls-key", () => {
  let dir: string;
  let hasOpenssl = true;
  test.beforeAll(() => {
    try {
      execFileSync("openssl", ["version"], { stdio: "ignore" });
    } catch {
      hasOpenssl = false;
      return;
    }
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-tls-"));
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        path.join(dir, "key.pem"),
        "-out",
        path.join(dir, "cert.pem"),
        "-days",
        "1",
        "-subj",
        "/CN=localhost",
        "-addext",
        "subjectAltName=IP:127.0.0.1,DNS:localhost",
      ],
      { stdio: "ignore" },
    );
  });

  test("serve HTTPS and WSS; the device cookie is Secure; pages hydrate", async ({ browser }) => {
    test.skip(!hasOpenssl, "openssl is not installed, so no certificate can be made for this test");
    const secure = await startServer({
      dataDir: makeDataDir(),
      args: ["--lan", "--tls-cert", path.join(dir, "cert.pem"), "--tls-key", path.join(dir, "key.pem")],
    });
    try {
      expect(secure.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(secure.pairLink).toMatch(/^https:\/\//);
      expect((await send(`${secure.url}/api/session/state`)).status).toBe(401);
      const res = await send(`${secure.url}/pair`, { method: "POST", ...json({ token: tokenOf(secure.pairLink!), name: "TLS" }) });
      expect(res.status).toBe(201);
      expect(String(res.headers["set-cookie"])).toMatch(/; Secure/);
      const cookie = String(res.headers["set-cookie"]).split(";")[0]!;
      expect(String((await send(`${secure.url}/`, { headers: { cookie } })).headers["content-security-policy"])).toContain(
        "upgrade-insecure-requests",
      );
      // HSTS on every response under TLS (refusals included), but not to a page asked for as localhost.
      expect((await send(`${secure.url}/`, { headers: { cookie } })).headers["strict-transport-security"]).toBe("max-age=31536000");
      expect((await send(`${secure.url}/api/session/state`)).headers["strict-transport-security"]).toBe("max-age=31536000");
      const local = await send(`${secure.url}/`, { headers: { cookie, host: `localhost:${new URL(secure.url).port}` } });
      expect(local.headers["strict-transport-security"]).toBeUndefined();
      const socket: TestSocket = await connect(secure.url, { headers: { cookie, origin: secure.url }, insecure: true });
      const watched = await socket.emitWithAck("session:watch");
      expect(watched.ok).toBe(true);
      socket.disconnect();
      expect(await handshake(secure.url, { origin: secure.url })).toBe("refused");

      // The agent's `studyloop park` reaches the https:// server: agents get the certificate as a
      // trusted CA (NODE_EXTRA_CA_CERTS), so a self-signed one works from inside a session.
      const env = await startAndReadEnv(secure, cookie, ["NODE_EXTRA_CA_CERTS", "STUDYLOOP_SESSION_TOKEN", "STUDYLOOP_URL"], {
        insecure: true,
      });
      expect(fs.readFileSync(env.NODE_EXTRA_CA_CERTS!, "utf8")).toContain(fs.readFileSync(path.join(dir, "cert.pem"), "utf8").trim());
      expect(env.STUDYLOOP_URL).toBe(secure.url);
      const park = spawnSync(process.execPath, [path.join(ROOT, "bin", "studyloop.js"), "park", "parked over https"], {
        cwd: ROOT,
        encoding: "utf8",
        env: { NODE_ENV: "production", PATH: process.env.PATH ?? "", HOME: os.homedir(), ...env },
      });
      expect(park.status, park.stderr + park.stdout).toBe(0);
      await send(`${secure.url}/api/session/end`, { method: "POST", headers: { cookie, origin: secure.url } });

      const context = await browser.newContext({ ...PHONE, ignoreHTTPSErrors: true });
      const page = await context.newPage();
      const problems = watchPage(page);
      await pairPhone(page, `${secure.url}/pair?token=${await freshToken(secure, cookie)}`, "TLS phone");
      await page.goto(`${secure.url}/study`);
      await hydrated(page);
      expect(problems).toEqual([]);
      await context.close();
    } finally {
      await secure.stop();
    }
  });

  test("a missing key or an unreadable certificate is a usage error", async () => {
    test.skip(!hasOpenssl, "openssl is not installed, so no certificate can be made for this test");
    await expect(startServer({ args: ["--tls-cert", path.join(dir, "cert.pem")] })).rejects.toThrow(/--tls-cert and --tls-key go together/);
    await expect(startServer({ args: ["--tls-cert", path.join(dir, "key.pem"), "--tls-key", path.join(dir, "key.pem")] })).rejects.toThrow(
      /do not make a usable certificate/,
    );
  });
});
