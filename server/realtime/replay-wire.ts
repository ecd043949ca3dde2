// The replay as it travels to a page that asked for it packed: the snapshot's UTF-8, deflated (raw,
// no header), as one binary attachment of the socket.io packet instead of a JSON string. A 10,000-line
// snapshot is mostly repeated SGR sequences (517 KB, 638 KB as JSON with its escapes written \u001b).
// Deflated in libuv's thread pool, at level 1: the wire is loopback or a LAN, so speed beats ratio.
import { promisify } from "node:util";
import zlib from "node:zlib";
import type { TerminalFrame } from "../transports/pty/terminal-frames.ts";
import type { PackedReplayFrame } from "./events.ts";

const deflateRaw = promisify(zlib.deflateRaw);

type ReplayFrame = Extract<TerminalFrame, { type: "replay" }>;

export async function packReplay(frame: ReplayFrame): Promise<PackedReplayFrame> {
  const bytes = await deflateRaw(Buffer.from(frame.data, "utf8"), { level: 1 });
  const { data, ...rest } = frame;
  return { ...rest, type: "packed-replay", chars: data.length, bytes };
}
