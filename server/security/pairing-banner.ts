// What `studyloop web --lan` prints: each address with its own one-time pairing link, and a QR code
// of the link for each LAN address (the phone scans it; this machine opens its link directly).
import type { AccessControl } from "./access-control.ts";
import { qrTerminal } from "./access-control.ts";

export async function pairingBanner(access: AccessControl, opts: { qr: boolean; canRefresh: boolean }): Promise<string> {
  const links = access.pairingLinks({ includeLoopback: true });
  const lines = [
    "Pairing is required on every device, this one included. Each link below works once, for",
    `${access.pairingLifetime}; a paired device can show fresh ones under "Pair a device" on the dashboard.`,
  ];
  const lan = links.filter((l) => l.label !== "this machine");
  for (const link of links) {
    lines.push("");
    lines.push(`  ${link.label === "this machine" ? "This machine" : `LAN (${link.label})`}: ${link.baseUrl}`);
    lines.push(`    pair: ${link.pairUrl}`);
    if (opts.qr && link.label !== "this machine") lines.push(indent(await qrTerminal(link.pairUrl), "    "));
  }
  if (lan.length === 0) {
    lines.push("");
    lines.push(
      `  This machine has no LAN address right now: connect it to a network${opts.canRefresh ? " and press Enter for fresh links" : " and restart StudyLoop"}.`,
    );
  }
  if (opts.canRefresh) lines.push("", "Press Enter for fresh pairing links.");
  return lines.join("\n");
}

function indent(block: string, prefix: string): string {
  return block
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => prefix + line)
    .join("\n");
}
