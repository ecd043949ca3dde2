// Where a notification's link opens (the ntfy "click" header): always an origin this server serves
// on, never one a page claims (issue 42: a hello with origin "http://evil.example" made every ntfy
// link point there). A page's claim only chooses among the server's own origins (its loopback and LAN
// addresses, and --allow-origin); anything else gets the server's first (a LAN address when it pairs
// devices, since a phone opens the link). Pure.
import { isLoopbackName, normaliseOrigin } from "../security/origin.ts";

/** The origins this server serves on, first the one a link should use when the page's claim is not one of them. */
export function ownOrigins(facts: {
  /** The server's addresses (AccessControl.baseUrls): loopback, then each LAN address. */
  readonly baseUrls: readonly string[];
  /** --allow-origin. */
  readonly allowOrigins: readonly string[];
  /** Devices pair over the LAN: a link is opened on a phone, so a LAN address comes first. */
  readonly lan: boolean;
}): string[] {
  const out: string[] = [];
  const add = (origin: string | undefined) => {
    if (origin && !out.includes(origin)) out.push(origin);
  };
  const bases = facts.baseUrls.map(normaliseOrigin).filter((o): o is string => o !== undefined);
  const isLoopback = (o: string) => isLoopbackName(new URL(o).hostname.replace(/^\[|\]$/g, ""));
  const ordered = facts.lan ? [...bases.filter((o) => !isLoopback(o)), ...bases.filter(isLoopback)] : bases;
  for (const origin of ordered) {
    add(origin);
    // The same loopback server under its other names (a learner opens localhost or 127.0.0.1).
    if (isLoopback(origin)) {
      const { protocol, port } = new URL(origin);
      for (const name of ["127.0.0.1", "localhost", "[::1]"]) add(normaliseOrigin(`${protocol}//${name}${port ? `:${port}` : ""}`));
    }
  }
  for (const origin of facts.allowOrigins) add(normaliseOrigin(origin));
  return out;
}

/** The origin a link is made absolute with: the page's, only if it is one of `own`; else own's first. */
export function clickOrigin(claimed: string | null, own: readonly string[]): string | undefined {
  const origin = claimed ? normaliseOrigin(claimed) : undefined;
  return origin && own.includes(origin) ? origin : own[0];
}
