// The custom server: one Node http server on one port serving the Next.js app and socket.io.
// It binds first (so a busy port fails before anything is written), then migrates, then starts Next.
import http from "node:http";
import v8 from "node:v8";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { PROJECT_ROOT, databaseFile } from "../config/paths.ts";
import type { Settings } from "../config/settings.ts";
import { describeTarget, type DatabaseTarget } from "../db/database-target.ts";
import { openStorage } from "../db/storage.ts";
import { CardStore } from "../cards/card-store.ts";
import { setRuntime, type Runtime } from "../runtime.ts";
import { AgentRegistry } from "../agents/agent-registry.ts";
import { SessionService } from "../sessions/session-service.ts";
import { SessionEvents } from "../sessions/session-events.ts";
import { LeaseThread } from "../sessions/lease/lease-thread.ts";
import { StudyLog } from "../study/study-log.ts";
import { LearningRecord } from "../recording/learning-record.ts";
import { attachRealtime } from "../realtime/socket-server.ts";
import { applySecurityHeaders } from "../security/headers.ts";
import { AccessControl } from "../security/access-control.ts";
import { createHttpGate } from "../security/http-gate.ts";
import { isLoopbackBind } from "../security/origin.ts";
import { SocketGuard } from "../security/socket-guard.ts";
import { createNotifications } from "../notify/notifications.ts";
import { attachNotifyRealtime } from "../realtime/notify-realtime.ts";
import { printable } from "../security/safe-text.ts";
import { prepareNext, warmPages } from "./next-app.ts";
import { loadTrim, MemoryTrimmer } from "../diagnostics/memory-trim.ts";
import { ownRoute } from "./own-routes.ts";
import { formatMemoryReport, memoryReport } from "../diagnostics/memory-report.ts";
import { LANE_PATH } from "../../common/terminal/lane-codec.ts";

export interface ServeOptions {
  readonly dataDir: string;
  /** Where the rows live (default: studyloop.db in dataDir); session folders stay in dataDir. */
  readonly database?: DatabaseTarget;
  readonly host: string;
  readonly port: number;
  readonly dev: boolean;
  readonly settings: Settings;
  readonly log?: (line: string) => void;
  /** --lan: pairing is required from every address (it is anyway when bound beyond loopback). */
  readonly lan?: boolean;
  /** --tls-cert and --tls-key, read: serve HTTPS and WSS. */
  readonly tls?: { readonly cert: Buffer; readonly key: Buffer };
  /** --allow-origin, normalised: origins trusted beside the served one. */
  readonly allowOrigins?: readonly string[];
}

export interface RunningServer {
  readonly url: string;
  readonly port: number;
  readonly runtime: Runtime;
  /** Clean stop: live sessions end as server-shutdown after their transcripts are saved. */
  close(): Promise<void>;
}

/** The port is taken, or the address cannot be bound: a learner-facing refusal. */
export class ListenError extends Error {}

/**
 * How far V8 lets the old generation grow past what survived its last full collection before the next
 * one (V8's own factor is up to 4x when collections are fast). Under a flood the server's thread makes
 * garbage at megabytes a second (socket.io frames, the replay ring, the recording's lines): a 50 MB
 * flood peaked +170 MiB over live with V8's factor, +95 with 1.1x, for ~5% more CPU on that thread
 * (docs/performance.md, round 4). A collector heuristic read at every collection, so it can be set now.
 */
export const HEAP_GROWING_PERCENT = 10;

export async function serve(options: ServeOptions): Promise<RunningServer> {
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  // Log lines quote what clients sent (names, paths): escaped, so they cannot drive the terminal.
  const log = options.log ?? ((line: string) => console.log(printable(line, { keepNewlines: true })));
  let handle: ((req: http.IncomingMessage, res: http.ServerResponse, csp: string) => void) | undefined;
  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const csp = applySecurityHeaders(res, { dev: options.dev, tls: options.tls !== undefined, host: req.headers.host });
    if (handle) return handle(req, res, csp);
    res.statusCode = 503;
    res.setHeader("content-type", "text/plain; charset=utf-8");
    res.setHeader("retry-after", "2");
    res.end("StudyLoop is starting. Reload in a moment.\n");
  };
  const server = options.tls
    ? https.createServer({ cert: options.tls.cert, key: options.tls.key }, onRequest)
    : http.createServer(onRequest);
  await listen(server, options.host, options.port);
  const port = (server.address() as AddressInfo).port;
  const url = `${options.tls ? "https" : "http"}://${urlHost(options.host)}:${port}`;

  // What has started, stopped in reverse if the start fails part-way: a server that cannot serve must
  // exit, not linger with its timers and threads and no listener (issue 39).
  const started: (() => unknown)[] = [];
  try {
    const target = options.database ?? { provider: "sqlite", file: databaseFile(options.dataDir) };
    const storage = await openStorage(target, { log });
    started.push(() => storage.close());
    if (storage.applied.length > 0) log(`Database ready (applied ${storage.applied.join(", ")}).`);
    if (target.provider === "postgresql") log(`Database: ${describeTarget(target)}`);
    const { db, sqliteReads: reads } = storage;
    const agents = new AgentRegistry(options.dataDir);
    const cards = new CardStore(db);
    // One bus for sessions and the study loop: neither imports the other (session-events.ts).
    const events = new SessionEvents();
    // A card written or reviewed changes what pages show: the warm-up's due count, the Review count.
    cards.onChange(() => events.emit("changed"));
    const sessions = new SessionService({
      db,
      reads,
      dataDir: options.dataDir,
      settings: options.settings,
      agents,
      ownerUrl: url,
      log,
      events,
      briefing: cards.briefingOrNothing(log),
      // Leases are renewed on a thread of their own, with its own connection (DESIGN.md invariant 7).
      leases: ({ listener, heartbeatMs, touchWithinMs }) => new LeaseThread({ target, heartbeatMs, touchWithinMs, listener, log }),
    });
    // Before the first reconcile: a session a crash left behind is indexed from its recording when it is ended.
    const record = new LearningRecord({
      db,
      dataDir: options.dataDir,
      sessions,
      maxBytes: options.settings.STUDYLOOP_RECORDING_MAX_MB * 1_000_000,
      log,
    });
    started.push(() => sessions.shutdown());
    await sessions.startBackgroundWork();
    started.push(() => record.stop());
    record.start();
    const study = new StudyLog(db, sessions, events, {
      minuteMs: options.settings.STUDYLOOP_TIMER_MINUTE_SECONDS * 1000,
      log,
      dueCards: (topic) => cards.dueCount(topic),
    });
    started.push(() => study.stop());
    study.start();
    const access = new AccessControl(db, {
      requirePairing: options.lan === true || !isLoopbackBind(options.host),
      tls: options.tls !== undefined,
      bindHost: options.host,
      port,
      allowOrigins: options.allowOrigins ?? [],
      pairingTtlMs: options.settings.STUDYLOOP_PAIRING_TOKEN_SECONDS * 1000,
      deviceIdleMs: options.settings.STUDYLOOP_DEVICE_IDLE_SECONDS * 1000,
      verifyAgentToken: (token) => sessions.sessionForToken(token).then(() => true),
      log,
    });
    const notifications = createNotifications({
      db,
      sessions,
      events,
      access,
      dataDir: options.dataDir,
      settings: options.settings,
      log,
      // The review loop's due count: a calm "review cards are due" once a day (server/notify/review-reminder.ts).
      reviewDueCount: () => cards.dueCount(),
    });
    started.push(() => notifications.close());
    const runtime: Runtime = {
      dataDir: options.dataDir,
      settings: options.settings,
      sessions,
      agents,
      study,
      access,
      cards,
      events,
      record,
      notify: notifications.notifier,
    };
    setRuntime(runtime);

    (process.env as Record<string, string>).NODE_ENV = options.dev ? "development" : "production";
    const app = await prepareNext({ dev: options.dev, dir: PROJECT_ROOT, hostname: options.host, port });
    const requestHandler = app.getRequestHandler();
    const gate = createHttpGate(access, log);
    const trim = loadTrim();
    const memory = trim ? new MemoryTrimmer(trim) : undefined;
    handle = (req, res, csp) =>
      void gate.request(req, res, csp).then(
        (cleared) => (cleared ? (ownRoute(req, res, runtime, log) ?? (() => requestHandler(req, res)))() : undefined),
        (error: unknown) => {
          log(
            `Request ${req.method} ${req.url} failed at the gate: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
          );
          if (!res.headersSent) {
            res.statusCode = 500;
            res.setHeader("content-type", "text/plain; charset=utf-8");
          }
          res.end("Something went wrong on the StudyLoop server. Try again; if it keeps happening, see the server's log.\n");
        },
      );

    const guard = new SocketGuard(access, log);
    const realtime = attachRealtime(server, runtime, log, { allowRequest: guard.allowRequest, sameDevice: guard.sameDevice });
    const unguard = guard.attach(realtime.io);
    const unnotify = attachNotifyRealtime(realtime.io, notifications.notifier, access, log);
    if (options.dev) {
      // Next's dev server keeps its hot-reload socket on the same port; socket.io leaves it alone.
      const upgrade = app.getUpgradeHandler();
      server.on("upgrade", (req, socket, head) => {
        if (req.url?.startsWith("/socket.io/") || req.url?.startsWith(`${LANE_PATH}?`)) return;
        void gate.upgradeAllowed(req).then((allowed) => {
          if (allowed) void upgrade(req, socket, head);
          else socket.destroy();
        });
      });
    }

    // `kill -USR2 <pid>`: where the memory is, per thread (docs/performance.md; bench/server-flood.ts).
    const reportMemory = () => void memoryReport().then((report) => log(formatMemoryReport(report)));
    process.on("SIGUSR2", reportMemory);

    let closing: Promise<void> | undefined;
    const close = () =>
      (closing ??= (async () => {
        process.off("SIGUSR2", reportMemory);
        memory?.stop();
        study.stop();
        await sessions.shutdown();
        await record.stop();
        notifications.close();
        unnotify();
        unguard();
        await realtime.close();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await app.close().catch(() => undefined);
        await storage.close();
        setRuntime(undefined);
      })());
    // Give back what start-up left free once the first pages are rendered (or at once, with no warm-up).
    const warming = !options.dev && access.policy.loopbackOnly ? warmPages(url) : Promise.resolve();
    void warming.then(() => memory?.start());
    return { url, port, runtime, close };
  } catch (error) {
    server.close();
    for (const stop of started.reverse()) {
      try {
        await stop();
      } catch (stopError) {
        log(`While stopping after a failed start: ${String(stopError)}`);
      }
    }
    setRuntime(undefined);
    throw error;
  }
}

function listen(server: http.Server | https.Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off("listening", onListening);
      if (error.code === "EADDRINUSE") {
        reject(
          new ListenError(
            `Port ${port} on ${host} is already in use: is StudyLoop (or another program) already running there? Stop it or choose another port with --port.`,
          ),
        );
      } else if (error.code === "EACCES") {
        reject(new ListenError(`Not allowed to listen on port ${port}: choose a port above 1023 with --port.`));
      } else if (error.code === "EADDRNOTAVAIL" || error.code === "ENOTFOUND") {
        reject(new ListenError(`Cannot listen on ${host}: this machine has no such address. Use --host 127.0.0.1.`));
      } else reject(error);
    };
    const onListening = () => {
      server.off("error", onError);
      resolve();
    };
    server.once("error", onError);
    server.once("listening", onListening);
    server.listen(port, host);
  });
}

function urlHost(host: string): string {
  if (host === "0.0.0.0" || host === "::") return "127.0.0.1";
  return host.includes(":") ? `[${host}]` : host;
}
