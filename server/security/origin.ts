// Where a request comes from and where it was sent to: Origin and Host checks, pure.
// - State-changing requests and socket handshakes must come from the served origin (the scheme and
//   Host the request arrived with) or from an origin on the --allow-origin list; a browser's
//   cross-site request (Sec-Fetch-Site: cross-site) is refused whatever its method, except a plain
//   navigation, which carries no SameSite=Strict cookie anyway.
// - Served to loopback only, StudyLoop answers only to loopback names (and allow-listed hosts), so a
//   DNS-rebinding page (evil.example resolving to 127.0.0.1) cannot talk to it as its own origin.

/** "scheme://host[:port]" lower-cased with the scheme's default port dropped; undefined if not an origin. */
export function normaliseOrigin(value: string): string | undefined {
  if (!/^https?:\/\/[^/?#\s]+$/i.test(value)) return undefined;
  try {
    const url = new URL(value);
    if (url.username || url.password) return undefined;
    return url.origin.toLowerCase();
  } catch {
    return undefined;
  }
}

/** The origin a request was sent to, from its Host header; undefined if the Host is not a host. */
export function servedOrigin(host: string | undefined, secure: boolean): string | undefined {
  if (!host) return undefined;
  return normaliseOrigin(`${secure ? "https" : "http"}://${host}`);
}

/** The host name of a Host header value ("[::1]:80" gives "::1"); undefined if it is not one. */
export function hostName(host: string | undefined): string | undefined {
  const origin = servedOrigin(host, false);
  if (!origin) return undefined;
  const name = new URL(origin).hostname;
  return name.startsWith("[") ? name.slice(1, -1) : name;
}

export function isLoopbackName(name: string): boolean {
  const n = name.toLowerCase().replace(/\.$/, "");
  return n === "localhost" || n.endsWith(".localhost") || n === "::1" || /^127(\.\d{1,3}){3}$/.test(n);
}

/** Whether a bind address serves this machine only. */
export function isLoopbackBind(host: string): boolean {
  return isLoopbackName(host) || host === "::ffff:127.0.0.1";
}

export interface RequestFacts {
  readonly method: string;
  readonly host: string | undefined;
  readonly origin: string | undefined;
  /** Sec-Fetch-Site, which browsers send on every request. */
  readonly fetchSite: string | undefined;
  /** Sec-Fetch-Mode: "navigate" for a page load. */
  readonly fetchMode: string | undefined;
  readonly secure: boolean;
}

export interface OriginPolicy {
  /** Normalised origins trusted beside the served one (--allow-origin). */
  readonly allowOrigins: readonly string[];
  /** Served to loopback only: answer only to loopback names and allow-listed hosts. */
  readonly loopbackOnly: boolean;
}

export type OriginVerdict = { ok: true } | { ok: false; status: 400 | 403 | 421; reason: string };

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function isSafeMethod(method: string): boolean {
  return SAFE_METHODS.has(method.toUpperCase());
}

/** The Host check: which names this server answers to. */
export function checkHost(facts: Pick<RequestFacts, "host">, policy: OriginPolicy): OriginVerdict {
  const name = hostName(facts.host);
  if (!name) return { ok: false, status: 400, reason: "The request has no valid Host header." };
  if (!policy.loopbackOnly || isLoopbackName(name)) return { ok: true };
  if (policy.allowOrigins.some((o) => hostName(new URL(o).host) === name)) return { ok: true };
  return {
    ok: false,
    status: 421,
    reason: `StudyLoop serves this machine only and does not answer to "${name}". Open it at 127.0.0.1 or localhost, or start it with --allow-origin for this name.`,
  };
}

/**
 * The Origin check, for every HTTP request and socket handshake. `handshake` marks a socket.io
 * handshake: it must pass the origin test whatever its method.
 */
export function checkOrigin(facts: RequestFacts, policy: OriginPolicy, handshake = false): OriginVerdict {
  const crossSite = facts.fetchSite?.toLowerCase() === "cross-site";
  const navigation = facts.fetchMode?.toLowerCase() === "navigate" && facts.method.toUpperCase() === "GET";
  if (crossSite && !navigation) return refuseCrossSite();
  if (!handshake && isSafeMethod(facts.method)) return { ok: true };
  if (facts.origin === undefined) {
    // Browsers send Origin on every cross-origin request and every socket handshake: a request without
    // one comes from a program (the CLI, curl), which has no cookies of the learner's to ride on.
    return { ok: true };
  }
  const origin = normaliseOrigin(facts.origin);
  if (!origin) return refuseCrossSite();
  const served = servedOrigin(facts.host, facts.secure);
  if (origin === served || policy.allowOrigins.includes(origin)) return { ok: true };
  return refuseCrossSite();
}

function refuseCrossSite(): OriginVerdict {
  return {
    ok: false,
    status: 403,
    reason: "Cross-site requests are refused: open StudyLoop itself to do this (or add the site with --allow-origin).",
  };
}

/** Parses --allow-origin: comma-separated origins; throws a sentence naming a bad one. */
export function parseAllowOrigins(raw: string | undefined): string[] {
  if (!raw) return [];
  const out: string[] = [];
  for (const part of raw
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const origin = normaliseOrigin(part.replace(/\/$/, ""));
    if (!origin) throw new Error(`"${part}" is not an origin: write it as scheme://host[:port], for example https://study.example.org`);
    if (!out.includes(origin)) out.push(origin);
  }
  return out;
}
