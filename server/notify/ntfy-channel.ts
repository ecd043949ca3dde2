// ntfy (https://ntfy.sh, or a self-hosted server): one HTTP POST to the topic URL the learner chose,
// the text as the body and ntfy's headers for the title, priority and the link a tap opens. Sent
// through outbound.ts: only to addresses the learner meant, no redirects.
import type { Urgency } from "./kinds.ts";
import { sendOutbound } from "./outbound.ts";
import { ntfyPriority } from "./policy.ts";

/** A topic server that does not answer within this is given up on (ms). */
const NTFY_TIMEOUT_MS = 10_000;

export interface NtfyMessage {
  readonly title: string;
  readonly body: string;
  readonly urgency: Urgency;
  /** Absolute, or undefined when the device's address is not known. */
  readonly click: string | undefined;
}

export async function sendNtfy(
  topicUrl: string,
  message: NtfyMessage,
  allowHosts: readonly string[],
): Promise<{ ok: true } | { ok: false; detail: string }> {
  const headers: Record<string, string> = {
    "content-type": "text/plain; charset=utf-8",
    // Header values must be Latin-1: titles are plain ASCII sentences (kinds.ts).
    title: message.title.replace(/[^\x20-\x7e]/g, ""),
    priority: String(ntfyPriority(message.urgency)),
    tags: message.urgency === "urgent" ? "warning" : "bell",
  };
  if (message.click) headers.click = message.click;
  const result = await sendOutbound({ url: topicUrl, method: "POST", headers, body: message.body, timeoutMs: NTFY_TIMEOUT_MS, allowHosts });
  return result.ok ? { ok: true } : { ok: false, detail: result.detail };
}
