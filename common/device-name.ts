// The name a browser gets on the Devices page until the learner renames it: pure, used by the
// server (pairing) and the page (notifications).

/** A name the learner will recognise on the devices page, from the browser's User-Agent. */
export function guessDeviceName(userAgent: string | undefined): string {
  const ua = userAgent ?? "";
  const browser = /Edg\//.test(ua)
    ? "Edge"
    : /Firefox\//.test(ua)
      ? "Firefox"
      : /Chrom(e|ium)\//.test(ua)
        ? "Chrome"
        : /Safari\//.test(ua)
          ? "Safari"
          : undefined;
  const device = /iPhone/.test(ua)
    ? "iPhone"
    : /iPad/.test(ua)
      ? "iPad"
      : /Android/.test(ua)
        ? /Mobile/.test(ua)
          ? "Android phone"
          : "Android tablet"
        : /Macintosh/.test(ua)
          ? "Mac"
          : /Windows/.test(ua)
            ? "Windows PC"
            : /Linux|X11/.test(ua)
              ? "Linux computer"
              : "Device";
  return browser ? `${device} (${browser})` : device;
}
