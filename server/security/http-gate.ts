// The gate every HTTP request passes before Next sees it: Host and Origin checks, body limits, the
// pairing pages, the tutor's token (only on its routes), and (when pairing is required) a paired
// device. Refusals are a status and one sentence: JSON for the API and programs, a small HTML page for
// a browser's page load; each closes the connection (an unread body is not read on) and is logged as
// one rate-limited line.
import type { IncomingMessage, ServerResponse } from "node:http";
import { bodyLimitFor } from "../transports/acp/attachments.ts";
import type { AccessControl } from "./access-control.ts";
import { MAX_JSON_BODY_BYTES } from "./body-limits.ts";
import { guessDeviceName } from "../../common/device-name.ts";
import { DEVICE_HEADER } from "./device-header.ts";
import { shareNonceWithNext } from "./headers.ts";
import { ownPolicyFor } from "./attachment-policy.ts";
import { isSafeMethod } from "./origin.ts";
import { alreadyPairedPage, notPairedPage, pairFormPage, refusalPage } from "./pair-pages.ts";
import { RefusalLog } from "./refusal-log.ts";
import { lingerOnClose } from "./linger-close.ts";
import { tutorMayCall, tutorTokenRefusal } from "./tutor-routes.ts";

/** A pairing form or JSON body is a token and a name: 4 KB is far more than either. */
const PAIR_BODY_MAX_BYTES = 4 * 1024;

export const PAIR_PATH = "/pair";

export interface HttpGate {
  /** Handles or refuses the request itself (false), or clears it for Next (true). */
  request(req: IncomingMessage, res: ServerResponse, csp: string): Promise<boolean>;
  /** Whether a WebSocket upgrade that is not socket.io's (Next's dev reload) may proceed. */
  upgradeAllowed(req: IncomingMessage): Promise<boolean>;
}

export function createHttpGate(access: AccessControl, log: (line: string) => void): HttpGate {
  const refusals = new RefusalLog(log);
  const refuse = (req: IncomingMessage, res: ServerResponse, status: number, reason: string, page?: () => string): false =>
    refuseWith(refusals, req, res, status, reason, page);
  return {
    async request(req, res, csp) {
      // A header only the gate may set: what a client sends under this name is dropped.
      delete req.headers[DEVICE_HEADER];
      let url: URL;
      try {
        url = new URL(req.url ?? "/", "http://studyloop.invalid");
      } catch {
        return refuse(req, res, 400, "The request's address is not valid.");
      }
      const origin = access.checkRequest(req);
      if (!origin.ok) return refuse(req, res, origin.status, origin.reason);

      const declared = req.headers["content-length"];
      const bodyLimit = bodyLimitFor(url.pathname, MAX_JSON_BODY_BYTES); // photos: issue 19
      if (declared !== undefined && !(Number(declared) <= bodyLimit)) {
        return refuse(
          req,
          res,
          413,
          `The request is too large (${bodyLimit === MAX_JSON_BODY_BYTES ? "64 KB" : `${bodyLimit / 1024 / 1024} MB`} at most).`,
        );
      }
      if (declared === undefined && req.headers["transfer-encoding"] !== undefined && !isSafeMethod(req.method ?? "GET")) {
        return refuse(req, res, 411, "Send the request with a Content-Length (64 KB at most).");
      }

      if (url.pathname === PAIR_PATH) {
        await pairRoute(access, req, res, url, refuse);
        return false;
      }

      // The tutor's token is refused outside its routes, served to loopback only or not: it lives in the
      // agent's shell. (Pages never send a Bearer token; a proxy's Basic credentials are not one.)
      const tutor = /^Bearer\b/i.test(req.headers.authorization ?? "");
      if (tutor && !tutorMayCall(req.method ?? "GET", url.pathname)) return refuse(req, res, 401, tutorTokenRefusal());

      const who = await access.identify(req, { allowAgent: tutor });
      if (!who) return refuse(req, res, 401, "This device is not paired with StudyLoop: open a pairing link first.", notPairedPage);
      if (who.kind === "device") req.headers[DEVICE_HEADER] = who.deviceId;
      shareNonceWithNext(req, csp);
      const own = ownPolicyFor(url.pathname);
      if (own) res.setHeader("content-security-policy", own);
      return true;
    },

    async upgradeAllowed(req) {
      return access.checkRequest(req, true).ok && (await access.identify(req)) !== undefined;
    },
  };
}

type Refuse = (req: IncomingMessage, res: ServerResponse, status: number, reason: string, page?: () => string) => false;

async function pairRoute(access: AccessControl, req: IncomingMessage, res: ServerResponse, url: URL, refuse: Refuse): Promise<void> {
  res.setHeader("cache-control", "no-store");
  const method = (req.method ?? "GET").toUpperCase();
  const address = req.socket.remoteAddress;
  if (!access.requirePairing) {
    if (method === "GET" || method === "HEAD") return redirect(res, "/");
    refuse(req, res, 400, "StudyLoop serves this machine only: there is nothing to pair. Start it with --lan to use it from a phone.");
    return;
  }
  if (method === "GET" || method === "HEAD") {
    if (await access.deviceOf(req)) return html(res, 200, alreadyPairedPage());
    const token = url.searchParams.get("token") ?? "";
    const verdict = access.checkToken(token, address);
    if (!verdict.ok) return refusePairing(refuse, req, res, verdict);
    return html(res, 200, pairFormPage({ token, suggestedName: guessDeviceName(req.headers["user-agent"]), host: req.headers.host ?? "" }));
  }
  if (method !== "POST") {
    res.setHeader("allow", "GET, POST");
    refuse(req, res, 405, "Pair with GET /pair?token=… (the page) or POST /pair.");
    return;
  }
  // An address that is locked out is refused before its body is even read.
  const limited = access.pairingLimit(address);
  if (limited) return refusePairing(refuse, req, res, limited);
  const type = (req.headers["content-type"] ?? "").toLowerCase();
  const isForm = type.startsWith("application/x-www-form-urlencoded");
  if (!isForm && !type.startsWith("application/json")) {
    refuse(req, res, 415, "Send the pairing as a form or as JSON.");
    return;
  }
  const body = await readBody(req, PAIR_BODY_MAX_BYTES);
  if (body === undefined) {
    refuse(req, res, 413, "The pairing request is too large.");
    return;
  }
  let input: unknown;
  if (isForm) {
    const form = new URLSearchParams(body.toString("utf8"));
    input = { token: form.get("token") ?? "", name: form.get("name") ?? undefined };
  } else {
    try {
      input = JSON.parse(body.toString("utf8"));
    } catch {
      input = undefined;
    }
  }
  const outcome = await access.pair(input, address, req.headers["user-agent"]);
  if (!outcome.ok) return refusePairing(refuse, req, res, outcome);
  res.setHeader("set-cookie", outcome.setCookie);
  if (isForm) return redirect(res, "/");
  json(res, 201, { device: outcome.device });
}

function refusePairing(
  refuse: Refuse,
  req: IncomingMessage,
  res: ServerResponse,
  outcome: { ok: false; status: number; reason: string; retryAfterSeconds?: number },
): void {
  if (outcome.retryAfterSeconds) res.setHeader("retry-after", String(outcome.retryAfterSeconds));
  refuse(req, res, outcome.status, outcome.reason, () => refusalPage("Pairing refused", outcome.reason));
}

/**
 * Writes a refusal and returns false (the request goes no further). `Connection: close` is set before
 * the answer is written: Node then ends the socket once the answer is out, instead of reading a refused
 * upload to its end to keep the connection alive. Never throws: a refusal must not cost a stack trace.
 */
function refuseWith(
  refusals: RefusalLog,
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  reason: string,
  page?: () => string,
): false {
  refusals.record({ method: req.method, url: req.url, address: req.socket.remoteAddress, status, reason });
  if (res.headersSent) {
    res.destroy();
    return false;
  }
  res.setHeader("connection", "close");
  if (wantsHtml(req)) html(res, status, page ? page() : refusalPage("Refused", reason));
  else json(res, status, { error: reason });
  // Stop reading what the client still sends soon after the answer (Node would otherwise drain a
  // refused 50 MB upload into the void first), but not at once: linger-close.ts says why.
  if (!req.complete) lingerOnClose(req.socket);
  return false;
}

function wantsHtml(req: IncomingMessage): boolean {
  const path = req.url ?? "";
  if (path.startsWith("/api/") || path.startsWith("/_next/")) return false;
  return (req.headers.accept ?? "").includes("text/html");
}

function html(res: ServerResponse, status: number, body: string): void {
  res.statusCode = status;
  res.setHeader("content-type", "text/html; charset=utf-8");
  res.setHeader("cache-control", "no-store");
  res.end(body);
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.statusCode = status;
  res.setHeader("content-type", "application/json; charset=utf-8");
  res.setHeader("cache-control", "no-store");
  res.end(JSON.stringify(body));
}

function redirect(res: ServerResponse, location: string): void {
  res.statusCode = 303;
  res.setHeader("location", location);
  res.end();
}

/** The body, or undefined once it passes `limit` bytes (reading stops there). */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.off("data", onData);
        req.pause();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    };
    req.on("data", onData);
    req.once("end", () => resolve(Buffer.concat(chunks)));
    req.once("error", reject);
  });
}
