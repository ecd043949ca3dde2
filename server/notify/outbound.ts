// The one way a notification leaves this server (ntfy, Web Push): an HTTP(S) request whose address is
// checked where it is connected to, after DNS (address-class.ts decides), so a name that resolves to
// 127.0.0.1 or a metadata address at send time (DNS rebinding) is refused like the address itself.
// Redirects are never followed. Every way the server could not be reached (refused, closed, filtered,
// timed out, not found, TLS) reads the same, so the answer tells nothing of a port's state (issue 42).
import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { isIpLiteral, isMetadataName, outboundVerdict, plainHost, refusalSentence } from "./address-class.ts";

export interface OutboundRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array | string | null;
  readonly timeoutMs: number;
  /** Hosts the learner allowed on this machine or the LAN (studyloop.config.json, notifications.allowHosts). */
  readonly allowHosts: readonly string[];
}

export type OutboundResult =
  | { readonly ok: true; readonly status: number }
  /** `refused`: StudyLoop would not connect (the address); else it tried and the server did not take it. */
  | { readonly ok: false; readonly refused: boolean; readonly detail: string; readonly status?: number };

/** The sentence for every failure to reach a server, whatever the cause. */
export const UNREACHABLE = "the server could not be reached (check the address, and that it is running and reachable from this machine)";

/** A refusal before anything is sent: the URL's scheme or its host (a literal address or a metadata name). Null: it may be tried. */
export function refuseUrl(raw: string, allowHosts: readonly string[]): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "the address is not a URL";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return "the address must start with https:// or http://";
  if (isMetadataName(url.hostname)) return refusalSentence("notifications", url.hostname, { ok: false, always: true, kind: "metadata" });
  if (!isIpLiteral(url.hostname)) return null;
  const verdict = outboundVerdict(url.hostname, plainHost(url.hostname), allowHosts);
  return verdict.ok ? null : refusalSentence("notifications", url.hostname, verdict);
}

export function sendOutbound(request: OutboundRequest): Promise<OutboundResult> {
  const early = refuseUrl(request.url, request.allowHosts);
  if (early) return Promise.resolve({ ok: false, refused: true, detail: early });
  const url = new URL(request.url);
  let refusal: string | undefined;
  // Called for host names (Node connects to a literal address without a lookup; refuseUrl judged it).
  const lookup: LookupFunction = (name, options, callback) => {
    dns.lookup(name, { all: true, family: options.family ?? 0, ...(options.hints ? { hints: options.hints } : {}) }, (error, found) => {
      if (error) return callback(error, "", 0);
      const allowed = found.filter((a) => outboundVerdict(url.hostname, a.address, request.allowHosts).ok);
      if (allowed.length === 0) {
        const verdict = outboundVerdict(url.hostname, found[0]?.address ?? "", request.allowHosts);
        refusal = verdict.ok ? UNREACHABLE : refusalSentence("notifications", url.hostname, verdict);
        return callback(Object.assign(new Error(refusal), { code: "ENOTALLOWED" }), "", 0);
      }
      // Node asks for every address (autoSelectFamily) or for one.
      if (options.all) (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, allowed);
      else callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  };
  const client = url.protocol === "https:" ? https : http;
  return new Promise<OutboundResult>((resolve) => {
    let settled = false;
    const done = (result: OutboundResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const req = client.request(url, { method: request.method, headers: request.headers, lookup, agent: false }, (res) => {
      const status = res.statusCode ?? 0;
      res.resume(); // the answer's body is not needed; read it so the socket closes cleanly
      if (status >= 300 && status < 400) {
        done({ ok: false, refused: false, detail: `the server answered with a redirect (${status}), which StudyLoop does not follow` });
      } else if (status >= 200 && status < 300) done({ ok: true, status });
      else done({ ok: false, refused: false, detail: `the server answered ${status}`, status });
    });
    const timer = setTimeout(() => req.destroy(new Error("timed out")), request.timeoutMs);
    req.on("error", () =>
      done(refusal ? { ok: false, refused: true, detail: refusal } : { ok: false, refused: false, detail: UNREACHABLE }),
    );
    if (request.body !== null) req.write(request.body);
    req.end();
  });
}
