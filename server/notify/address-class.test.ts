// Which addresses a notification may go to: every form an address can take in a URL the learner
// stores, after the URL parser (which turns decimal, octal and hex IPv4 into dotted form).
import { describe, expect, it } from "vitest";
import { classifyAddress, isMetadataName, outboundVerdict, refusalSentence, type AddressClass } from "./address-class.ts";

/** The host a URL names, as the URL parser hands it over. */
const hostOf = (url: string) => new URL(url).hostname;

describe("classifyAddress", () => {
  it.each<[string, AddressClass]>([
    // IPv4
    ["8.8.8.8", "public"],
    ["1.1.1.1", "public"],
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["172.32.0.1", "public"],
    ["192.168.1.20", "private"],
    ["100.64.0.1", "cgnat"],
    ["100.127.255.255", "cgnat"],
    ["100.128.0.1", "public"],
    ["0.0.0.0", "unspecified"],
    ["169.254.1.1", "link-local"],
    ["169.254.169.254", "metadata"],
    ["169.254.170.2", "metadata"],
    ["100.100.100.200", "metadata"],
    ["168.63.129.16", "metadata"],
    ["192.0.2.1", "special"],
    ["198.18.0.1", "special"],
    ["203.0.113.9", "special"],
    ["224.0.0.1", "special"],
    ["255.255.255.255", "special"],
    // IPv6
    ["2606:4700::1111", "public"],
    ["[2606:4700::1111]", "public"],
    ["::1", "loopback"],
    ["0:0:0:0:0:0:0:1", "loopback"],
    ["::", "unspecified"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["febf::1", "link-local"],
    ["fc00::1", "private"],
    ["fd12:3456::1", "private"],
    ["fd00:ec2::254", "metadata"],
    ["ff02::1", "special"],
    ["2001:db8::1", "special"],
    ["2001::1", "special"],
    ["2002:7f00:1::1", "special"],
    ["100::1", "special"],
    // IPv4 inside IPv6
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:a9fe:a9fe", "metadata"],
    ["::ffff:192.168.1.1", "private"],
    ["::ffff:8.8.8.8", "public"],
    ["::127.0.0.1", "loopback"],
    ["64:ff9b::a9fe:a9fe", "metadata"],
    ["64:ff9b::8.8.8.8", "public"],
    // not addresses
    ["localhost", "invalid"],
    ["ntfy.sh", "invalid"],
    ["1.2.3", "invalid"],
    ["256.1.1.1", "invalid"],
    ["01.1.1.1", "invalid"],
    ["1::2::3", "invalid"],
    ["::ffff:1.2.3.400", "invalid"],
  ])("%s is %s", (ip, kind) => {
    expect(classifyAddress(ip)).toBe(kind);
  });

  it.each<[string, AddressClass]>([
    ["http://2130706433/", "loopback"],
    ["http://0x7f.1/", "loopback"],
    ["http://0177.0.0.1/", "loopback"],
    ["http://127.1/", "loopback"],
    ["http://0/", "unspecified"],
    ["http://0xa9.0xfe.0xa9.0xfe/", "metadata"],
    ["http://2852039166/", "metadata"],
    ["http://169.254.169.254./latest/meta-data", "metadata"],
    ["http://[::ffff:127.0.0.1]/", "loopback"],
    ["http://[0:0:0:0:0:ffff:a9fe:a9fe]/", "metadata"],
    ["https://[fd00:ec2::254]/", "metadata"],
    ["http://①②⑦.0.0.1/", "loopback"],
  ])("the URL parser hands %s over as an address that is %s", (url, kind) => {
    expect(classifyAddress(hostOf(url))).toBe(kind);
  });

  it.each([
    ["https://metadata.google.internal/computeMetadata/v1/", true],
    ["http://METADATA.google.internal./", true],
    ["http://metadata/", true],
    ["http://instance-data.ec2.internal/", true],
    ["https://ntfy.sh/topic", false],
    ["http://metadata.example.org/", false],
  ])("%s names a metadata service: %s", (url, expected) => {
    expect(isMetadataName(hostOf(url))).toBe(expected);
  });
});

describe("outboundVerdict", () => {
  it.each([
    ["a public address", "ntfy.sh", "159.203.148.75", [], { ok: true }],
    ["loopback", "127.0.0.1", "127.0.0.1", [], { ok: false, always: false, kind: "loopback" }],
    ["a name resolving to loopback (rebinding)", "evil.example", "127.0.0.1", [], { ok: false, always: false, kind: "loopback" }],
    ["a LAN ntfy the learner allowed by name", "ntfy.lan", "192.168.1.10", ["ntfy.lan"], { ok: true }],
    ["a LAN ntfy allowed by its address", "ntfy.lan", "192.168.1.10", ["192.168.1.10"], { ok: true }],
    ["allowed with a final dot and upper case", "NTFY.lan.", "192.168.1.10", ["ntfy.LAN"], { ok: true }],
    ["another LAN host", "printer.lan", "192.168.1.11", ["ntfy.lan"], { ok: false, always: false, kind: "private" }],
    ["IPv6 loopback allowed", "[::1]", "::1", ["::1"], { ok: true }],
    ["metadata even if allowed", "169.254.169.254", "169.254.169.254", ["169.254.169.254"], { ok: false, always: true, kind: "metadata" }],
    [
      "a metadata name, whatever it resolves to",
      "metadata.google.internal",
      "8.8.8.8",
      ["metadata.google.internal"],
      { ok: false, always: true, kind: "metadata" },
    ],
    ["link-local even if allowed", "router.lan", "fe80::1", ["router.lan"], { ok: false, always: true, kind: "link-local" }],
  ])("%s", (_name, hostname, address, allow, expected) => {
    expect(outboundVerdict(hostname, address, allow)).toEqual(expected);
  });

  it("the refusal names the host and how to allow it, never a port", () => {
    const private_ = outboundVerdict("127.0.0.1", "127.0.0.1", []);
    const always = outboundVerdict("169.254.169.254", "169.254.169.254", []);
    if (private_.ok || always.ok) throw new Error("expected refusals");
    expect(refusalSentence("notifications", "127.0.0.1", private_)).toBe(
      'StudyLoop does not send notifications to 127.0.0.1: it is on this machine or a private network. If it is your own server (a self-hosted ntfy on your LAN), add "127.0.0.1" to "notifications": {"allowHosts": [...]} in studyloop.config.json.',
    );
    expect(refusalSentence("notifications", "169.254.169.254", always)).toMatch(/link-local or cloud metadata address/);
  });
});
