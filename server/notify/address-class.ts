// Which addresses a notification may be sent to (ntfy URLs, Web Push endpoints; issue 42). Pure: what
// kind of address an IP is, and whether StudyLoop may connect to it. The learner chose the URL, but a
// paired phone (or anyone who can reach the Devices page) could aim it at this machine's other
// services, the LAN, or a cloud's metadata service. docs/security.md, "Notifications".
//
//   always refused     link-local (169.254/16, fe80::/10) and cloud metadata addresses and names
//   refused unless     loopback, private (RFC 1918, fc00::/7), CGNAT (100.64/10), unspecified and the
//   the host is        other special-use ranges (documentation, benchmarking, multicast, reserved,
//   allowed            6to4, Teredo, NAT64): a self-hosted ntfy on the LAN is a real use
//   allowed            everything else (public addresses)
//
// IPv4 comes dotted: the WHATWG URL parser turns every other form (2130706433, 0x7f.1, 0177.0.0.1,
// 127.1) into it before anything here sees it. IPv6 that embeds IPv4 (::ffff:a.b.c.d, ::a.b.c.d,
// 64:ff9b::/96) is judged by its IPv4.

export type AddressClass =
  | "public"
  | "loopback"
  | "private"
  | "cgnat"
  | "unspecified"
  | "special"
  | "link-local"
  | "metadata"
  /** Not an IP address at all. */
  | "invalid";

/** Cloud metadata services: AWS/GCP/Azure/OpenStack/DigitalOcean, ECS tasks, AWS IPv6, Alibaba, Azure's wireserver, Oracle. */
const METADATA_IPS = new Set(["169.254.169.254", "169.254.170.2", "100.100.100.200", "168.63.129.16", "192.0.0.192", "fd00:ec2::254"]);
/** Names that resolve to a metadata service inside a cloud (compared lower-case, without a final dot). */
const METADATA_NAMES = new Set([
  "metadata",
  "metadata.google.internal",
  "metadata.goog",
  "instance-data",
  "instance-data.ec2.internal",
  "metadata.azure.internal",
  "metadata.tencentyun.com",
  "metadata.packet.net",
  "metadata.platformequinix.com",
]);

type Range4 = readonly [base: number, bits: number, kind: AddressClass];

const V4: readonly Range4[] = [
  [ip4("0.0.0.0")!, 8, "unspecified"],
  [ip4("10.0.0.0")!, 8, "private"],
  [ip4("100.64.0.0")!, 10, "cgnat"],
  [ip4("127.0.0.0")!, 8, "loopback"],
  [ip4("169.254.0.0")!, 16, "link-local"],
  [ip4("172.16.0.0")!, 12, "private"],
  [ip4("192.0.0.0")!, 24, "special"],
  [ip4("192.0.2.0")!, 24, "special"],
  [ip4("192.88.99.0")!, 24, "special"],
  [ip4("192.168.0.0")!, 16, "private"],
  [ip4("198.18.0.0")!, 15, "special"],
  [ip4("198.51.100.0")!, 24, "special"],
  [ip4("203.0.113.0")!, 24, "special"],
  [ip4("224.0.0.0")!, 4, "special"],
  [ip4("240.0.0.0")!, 4, "special"],
];

/** Dotted IPv4 to a number; undefined if it is not exactly four decimal parts of 0-255. */
function ip4(text: string): number | undefined {
  const parts = text.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^(0|[1-9]\d{0,2})$/.test(p) && Number(p) <= 255)) return undefined;
  return parts.reduce((n, p) => n * 256 + Number(p), 0);
}

function classify4(n: number, dotted: string): AddressClass {
  if (METADATA_IPS.has(dotted)) return "metadata";
  for (const [base, bits, kind] of V4) {
    const size = 2 ** (32 - bits);
    if (n >= base && n < base + size) return kind;
  }
  return "public";
}

/** IPv6 text to its eight 16-bit groups; undefined if it is not IPv6. A zone (%eth0) is dropped. */
function ip6(text: string): number[] | undefined {
  let t = text.toLowerCase().replace(/%.*$/, "");
  if (t.includes(".")) {
    // A dotted IPv4 tail (::ffff:127.0.0.1) is two groups.
    const cut = t.lastIndexOf(":");
    const n = ip4(t.slice(cut + 1));
    if (n === undefined) return undefined;
    t = `${t.slice(0, cut + 1)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const halves = t.split("::");
  if (halves.length > 2) return undefined;
  const groups = (s: string) => (s === "" ? [] : s.split(":"));
  const head = groups(halves[0]!);
  const rest = halves.length === 2 ? groups(halves[1]!) : [];
  if (![...head, ...rest].every((g) => /^[0-9a-f]{1,4}$/.test(g))) return undefined;
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const zeros = Array<string>(halves.length === 2 ? missing : 0).fill("0");
  return [...head, ...zeros, ...rest].map((g) => parseInt(g, 16));
}

function classify6(g: number[]): AddressClass {
  const text = g.map((x) => x.toString(16)).join(":");
  if (text === "fd00:ec2:0:0:0:0:0:254") return "metadata";
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  const embedded = () => {
    const n = g[6]! * 65536 + g[7]!;
    return classify4(n, [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join("."));
  };
  if (zeros(0, 8)) return "unspecified";
  if (zeros(0, 7) && g[7] === 1) return "loopback";
  if (zeros(0, 5) && g[5] === 0xffff) return embedded(); // IPv4-mapped
  if (zeros(0, 6)) return embedded(); // IPv4-compatible (deprecated)
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return embedded(); // NAT64
  if ((g[0]! & 0xffc0) === 0xfe80) return "link-local";
  if ((g[0]! & 0xfe00) === 0xfc00) return "private"; // unique local
  if ((g[0]! & 0xffc0) === 0xfec0) return "private"; // site-local (deprecated)
  if ((g[0]! & 0xff00) === 0xff00) return "special"; // multicast
  if (g[0] === 0x0100 && zeros(1, 4)) return "special"; // discard
  if (g[0] === 0x2001 && (g[1]! & 0xfe00) === 0) return "special"; // IETF assignments, Teredo
  if (g[0] === 0x2001 && g[1] === 0x0db8) return "special"; // documentation
  if (g[0] === 0x2002) return "special"; // 6to4
  if (g[0] === 0x64 && g[1] === 0xff9b) return "special"; // local-use NAT64
  if ((g[0]! & 0xe000) !== 0x2000) return "special"; // outside global unicast
  return "public";
}

/** What kind of address `ip` is (dotted IPv4, or IPv6 with or without brackets). */
export function classifyAddress(ip: string): AddressClass {
  const bare = ip.startsWith("[") && ip.endsWith("]") ? ip.slice(1, -1) : ip;
  const n = ip4(bare);
  if (n !== undefined) return classify4(n, bare);
  const groups = bare.includes(":") ? ip6(bare) : undefined;
  return groups ? classify6(groups) : "invalid";
}

/** A URL's host name as compared: lower-case, brackets kept off, no final dot. */
export function plainHost(hostname: string): string {
  const h = hostname.toLowerCase();
  const bare = h.startsWith("[") && h.endsWith("]") ? h.slice(1, -1) : h;
  return bare.endsWith(".") ? bare.slice(0, -1) : bare;
}

export function isIpLiteral(hostname: string): boolean {
  return classifyAddress(plainHost(hostname)) !== "invalid";
}

export function isMetadataName(hostname: string): boolean {
  return METADATA_NAMES.has(plainHost(hostname));
}

export type OutboundVerdict = { ok: true } | { ok: false; always: boolean; kind: AddressClass };

/**
 * May StudyLoop connect to `address` for a URL whose host is `hostname`? `allowHosts` are the hosts the
 * learner allowed in studyloop.config.json (names or IP addresses): the URL's host or the address
 * itself must be one of them for a loopback, private or special-use address.
 */
export function outboundVerdict(hostname: string, address: string, allowHosts: readonly string[]): OutboundVerdict {
  if (isMetadataName(hostname)) return { ok: false, always: true, kind: "metadata" };
  const kind = classifyAddress(plainHost(address));
  if (kind === "public") return { ok: true };
  if (kind === "link-local" || kind === "metadata" || kind === "invalid") return { ok: false, always: true, kind };
  const allowed = new Set(allowHosts.map(plainHost));
  if (allowed.has(plainHost(hostname)) || allowed.has(plainHost(address))) return { ok: true };
  return { ok: false, always: false, kind };
}

/** The learner's sentence for a refused host (the same whatever port: it says nothing of its state). */
export function refusalSentence(what: string, hostname: string, verdict: Extract<OutboundVerdict, { ok: false }>): string {
  const host = plainHost(hostname);
  if (verdict.always) {
    return `StudyLoop does not send ${what} to ${host}: it is a link-local or cloud metadata address, which no notification needs.`;
  }
  return (
    `StudyLoop does not send ${what} to ${host}: it is on this machine or a private network. ` +
    `If it is your own server (a self-hosted ntfy on your LAN), add "${host}" to "notifications": {"allowHosts": [...]} in studyloop.config.json.`
  );
}
