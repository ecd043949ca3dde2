// Cookie parsing and the device cookie's attributes, pure.

/** Cookie header to a name -> value map; the first of a repeated name wins (as browsers order them). */
export function parseCookies(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (!header) return out;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    if (!name || out.has(name)) continue;
    try {
      out.set(name, decodeURIComponent(value));
    } catch {
      out.set(name, value);
    }
  }
  return out;
}

export interface CookieOptions {
  readonly maxAgeSeconds?: number;
  readonly secure: boolean;
}

/** A cookie only this site's own pages send back, invisible to scripts. */
export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  if (!/^[A-Za-z0-9_-]+$/.test(name)) throw new Error(`Cookie name ${name} is not a token`);
  if (!/^[A-Za-z0-9_-]*$/.test(value)) throw new Error("Cookie values here are base64url only");
  const parts = [`${name}=${value}`, "Path=/", "HttpOnly", "SameSite=Strict"];
  if (options.maxAgeSeconds !== undefined) parts.push(`Max-Age=${Math.floor(options.maxAgeSeconds)}`);
  if (options.secure) parts.push("Secure");
  return parts.join("; ");
}

/**
 * The device cookie's name. Cookies ignore ports, so two StudyLoop servers on one host (a laptop
 * running two data directories) would overwrite each other's cookie under one name.
 */
export function deviceCookieName(port: number): string {
  return `studyloop_device_${port}`;
}

/** How long a paired device stays paired without revoking: 400 days, the most browsers keep a cookie. */
export const DEVICE_COOKIE_MAX_AGE_SECONDS = 400 * 24 * 60 * 60;
