// The tutor's session token opens only the routes in server/security/tutor-routes.ts, served to
// loopback only and with --lan alike. Every route under app/api is found on disk and tried with the
// token, so a route added later is covered without editing this test.
import { test, expect } from "@playwright/test";
import fs from "node:fs";
import path from "node:path";
import { ROOT, startServer, type StartedServer } from "./support/server";
import { handshake, json, pairWith, send, startAndReadEnv, state as storedState, tokenOf } from "./support/hostile";
import { tutorMayCall } from "../server/security/tutor-routes";

interface Route {
  readonly method: string;
  readonly path: string;
  readonly file: string;
}

/** Every exported handler of every app/api/**\/route.ts, with dynamic segments filled in. */
function apiRoutes(): Route[] {
  const out: Route[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === "route.ts") {
        const rel = path.relative(path.join(ROOT, "app"), path.dirname(full));
        const urlPath = `/${rel
          .split(path.sep)
          .map((s) => (s.startsWith("[") ? "00000000-0000-4000-8000-000000000000" : s))
          .join("/")}`;
        for (const m of fs.readFileSync(full, "utf8").matchAll(/export\s+(?:async\s+)?function\s+(GET|POST|PUT|PATCH|DELETE)\b/g)) {
          out.push({ method: m[1]!, path: urlPath, file: path.relative(ROOT, full) });
        }
      }
    }
  };
  walk(path.join(ROOT, "app", "api"));
  return out.sort((a, b) => `${a.path} ${a.method}`.localeCompare(`${b.path} ${b.method}`));
}

/** What is stored, but what the live session writes on its own: its heartbeat and recording size. */
const state = (dataDir: string) =>
  storedState(dataDir)
    .replace(/heartbeat_at[^,]*,/g, "")
    .replace(/recording_bytes[^,}\]]*/g, "");

/** A body each allowed route accepts, to show the token works there. */
const VALID_BODIES: Record<string, unknown> = {
  "POST /api/parking": { text: "parked by the tutor" },
  "POST /api/session/topics": { topic: "closures", status: "win" },
  "POST /api/cards": { front: "What does a closure capture?", back: "Variables, by reference.", topic: "closures" },
  "GET /api/cards": undefined,
  "POST /api/session/recall": { query: "closures" },
};

for (const mode of ["loopback", "--lan"] as const) {
  test.describe(`the tutor's token, ${mode}`, () => {
    let server: StartedServer;
    let cookie: string;
    let token: string;

    test.beforeAll(async () => {
      server = await startServer({ args: mode === "--lan" ? ["--lan"] : [] });
      cookie = mode === "--lan" ? await pairWith(server, tokenOf(server.pairLink!), "Laptop") : "studyloop_none=1";
      token = (await startAndReadEnv(server, cookie, ["STUDYLOOP_SESSION_TOKEN"])).STUDYLOOP_SESSION_TOKEN!;
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    });
    test.afterAll(async () => {
      await server.stop();
    });

    test("every route outside the table answers 401 to it and changes nothing; the table's routes work", async () => {
      test.setTimeout(120_000);
      const routes = apiRoutes();
      // The enumeration found the routes (a broken glob would make this test pass vacuously).
      expect(routes.length).toBeGreaterThanOrEqual(17);
      expect(routes).toContainEqual(expect.objectContaining({ method: "POST", path: "/api/devices/pairing" }));
      const refused = routes.filter((r) => !tutorMayCall(r.method, r.path));
      const allowed = routes.filter((r) => tutorMayCall(r.method, r.path));
      expect(allowed.map((r) => `${r.method} ${r.path}`).sort()).toEqual(Object.keys(VALID_BODIES).sort());

      const before = state(server.dataDir);
      for (const route of refused) {
        // No cookie (as from the agent's shell), with the token; a plausible body where one is read.
        const auth = { authorization: `Bearer ${token}` };
        const request =
          route.method === "GET"
            ? { headers: auth }
            : json({ text: "x", topic: "x", status: "win", keepThisDevice: false, action: "pause", energy: 5, agent: "tutor" }, auth);
        const res = await send(`${server.url}${route.path}`, { method: route.method, ...request });
        expect(res.status, `${route.method} ${route.path} (${route.file}): ${res.body}`).toBe(401);
        expect(JSON.parse(res.body).error).toMatch(
          /tutor's session token is only for the tutor's own commands \(studyloop park, studyloop topic, studyloop card, studyloop cards, studyloop recall\)/,
        );
      }
      // The session the token belongs to is still live, and nothing was written.
      expect(state(server.dataDir)).toBe(before);
      const live = await send(`${server.url}/api/session/state`, { headers: { cookie } });
      expect(JSON.parse(live.body).session?.status).toBe("live");

      for (const route of allowed) {
        const auth = { authorization: `Bearer ${token}` };
        const body = VALID_BODIES[`${route.method} ${route.path}`];
        const res = await send(`${server.url}${route.path}`, {
          method: route.method,
          ...(route.method === "GET" ? { headers: auth } : json(body, auth)),
        });
        expect(res.status, `${route.method} ${route.path}: ${res.body}`).toBeGreaterThanOrEqual(200);
        expect(res.status, `${route.method} ${route.path}: ${res.body}`).toBeLessThan(300);
      }
    });

    test("the token opens no page (nor, with --lan, a socket), and a pairing link cannot be minted with it", async () => {
      const page = await send(`${server.url}/devices`, { headers: { authorization: `Bearer ${token}`, accept: "text/html" } });
      expect(page.status).toBe(401);
      const pairing = await send(`${server.url}/api/devices/pairing`, { method: "POST", headers: { authorization: `Bearer ${token}` } });
      expect(pairing.status).toBe(401);
      expect(pairing.body).not.toContain("pair?token=");
      // Served to loopback only, any local program may open a socket anyway: the token adds nothing.
      if (mode === "--lan") expect(await handshake(server.url, { authorization: `Bearer ${token}` })).toBe("refused");
    });
  });
}
