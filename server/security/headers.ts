// Security headers on every response, set before Next or socket.io write theirs.
//
// The Content-Security-Policy allows no inline script: each page response gets a fresh nonce, which
// the custom server also puts in the *request's* Content-Security-Policy header, where Next.js reads
// it (next/dist/server/app-render/get-script-nonce-from-header) and stamps it on every script tag it
// writes, its inline hydration data included. 'strict-dynamic' lets those scripts load the app's
// chunks. Pages must be rendered per request for this (app/layout.tsx forces dynamic rendering): a
// prerendered page's inline scripts carry no nonce and would be blocked.
// Styles: xterm.js injects <style> elements and React writes style attributes, so style-src keeps
// 'unsafe-inline' (an injected style cannot run code); scripts are what the policy guards.
// Strict-Transport-Security under TLS (--tls-cert): browsers ignore it on a connection with certificate
// errors (RFC 6797 8.1: a self-signed certificate's warning stays clickable) and for IP addresses, and
// keep it for a host name with a trusted certificate (mkcert). Not for localhost: HSTS holds for every
// port of a host, so it would force HTTPS on every other local server for a year.
import { randomFillSync } from "node:crypto";
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";

const HEADERS: Readonly<Record<string, string>> = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
  "permissions-policy": "camera=(), microphone=(), geolocation=()",
};

const NONCE_BYTES = 16;
/** Random bytes are drawn for 256 nonces at a time: one call per response cost more than the rest of a state read's headers. */
const noncePool = Buffer.alloc(NONCE_BYTES * 256);
let nonceAt = noncePool.length;

/** A fresh nonce per response: 128 random bits, base64 (the alphabet Next's nonce parser accepts); each byte used once. */
export function newNonce(): string {
  if (nonceAt === noncePool.length) {
    randomFillSync(noncePool);
    nonceAt = 0;
  }
  nonceAt += NONCE_BYTES;
  return noncePool.toString("base64", nonceAt - NONCE_BYTES, nonceAt);
}

export function contentSecurityPolicy(nonce: string, options: { dev: boolean; tls: boolean }): string {
  const directives = [
    "default-src 'self'",
    // React in development evaluates code for its error overlays; production never needs eval.
    // 'wasm-unsafe-eval': the recording player (asciinema-player) compiles its terminal, a WebAssembly
    // module bundled with the page's own script; it allows compiling WebAssembly, not running strings.
    `script-src 'nonce-${nonce}' 'strict-dynamic' 'wasm-unsafe-eval'${options.dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "manifest-src 'self'",
    "worker-src 'self'",
  ];
  // Only under TLS: on plain http it would send every subresource to an https port that is not there.
  if (options.tls) directives.push("upgrade-insecure-requests");
  return directives.join("; ");
}

/** The script nonce of a Content-Security-Policy (the request's, as shareNonceWithNext put it), for a page's own inline script. */
export function scriptNonce(csp: string | null | undefined): string | undefined {
  return /'nonce-([A-Za-z0-9+/_-]+={0,2})'/.exec(csp ?? "")?.[1];
}

/** HSTS: one year, this host only. */
export const HSTS_VALUE = "max-age=31536000";

/** The Strict-Transport-Security value for a response, or undefined when none is sent. */
export function strictTransportSecurity(tls: boolean, host: string | undefined): string | undefined {
  if (!tls) return undefined;
  const name = (host ?? "").replace(/:\d+$/, "").toLowerCase();
  if (name === "localhost" || name.endsWith(".localhost")) return undefined;
  return HSTS_VALUE;
}

/** Sets the fixed headers and a CSP with a fresh nonce; returns the CSP so Next can read its nonce. */
export function applySecurityHeaders(
  res: ServerResponse,
  options: { dev: boolean; tls: boolean; host?: string | undefined } = { dev: false, tls: false },
): string {
  for (const [name, value] of Object.entries(HEADERS)) res.setHeader(name, value);
  const hsts = strictTransportSecurity(options.tls, options.host);
  if (hsts) res.setHeader("strict-transport-security", hsts);
  const csp = contentSecurityPolicy(newNonce(), options);
  res.setHeader("content-security-policy", csp);
  return csp;
}

/** The same headers for responses written by socket.io's engine (its `headers` event). */
export function addSecurityHeaders(headers: OutgoingHttpHeaders): void {
  for (const [name, value] of Object.entries(HEADERS)) headers[name] = value;
  headers["content-security-policy"] = "default-src 'none'; frame-ancestors 'none'";
}

/** Hands the response's CSP to Next on the request, replacing anything the client sent under that name. */
export function shareNonceWithNext(req: IncomingMessage, csp: string): void {
  delete req.headers["content-security-policy-report-only"];
  req.headers["content-security-policy"] = csp;
}
