// A session as one Markdown file: what it was, its summary, marks, parked thoughts and transcript (or
// chat). Pure; the route handler sends it as a download.
import type { SessionView } from "../sessions/session-view.ts";
import type { MarkView, ParkedView } from "../../common/study/study-view.ts";
import type { ChatMessage } from "./chat-messages.ts";

export interface MarkdownInput {
  readonly session: SessionView;
  readonly marks: readonly MarkView[];
  readonly parked: readonly ParkedView[];
  /** The terminal transcript (transcriptText), or null. */
  readonly transcript: string | null;
  readonly chat: readonly ChatMessage[];
}

/** A fence longer than any run of backticks inside, so the text cannot close it. */
export function fenced(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}text\n${text.replace(/\n+$/, "")}\n${fence}`;
}

/** Text that Markdown shows as written (no headings, links, emphasis or HTML from a topic or a note). */
export function plain(text: string): string {
  return text.replace(/\s+/g, " ").replace(/([\\`*_{}[\]()#+\-.!|<>~])/g, "\\$1");
}

function when(iso: string): string {
  return new Date(iso).toISOString().replace("T", " ").slice(0, 16) + " UTC";
}

export function sessionMarkdown(input: MarkdownInput): string {
  const s = input.session;
  const out: string[] = [`# ${plain(s.topic)}`, ""];
  out.push(`- Started: ${when(s.startedAt)}${s.endedAt ? ` · ended ${when(s.endedAt)}` : " · still running"}`);
  out.push(`- Tutor: ${plain(s.agent)} (${s.transport}) · energy ${s.energy}/10`);
  if (s.explanation) out.push(`- ${plain(s.explanation)}`);
  out.push("");
  const summary = s.summary;
  if (summary) {
    out.push("## Summary", "", `${summary.durationMinutes} min, ${summary.focusMinutes} min of focus.`, "");
    const list = (title: string, items: readonly string[]) => {
      if (items.length) out.push(`**${title}:** ${items.map(plain).join(" · ")}`, "");
    };
    list("Wins", summary.wins);
    list("Struggles", summary.struggles);
    list("Insights", summary.insights);
    list("For next session", summary.forNextSession);
  }
  if (input.marks.length) {
    out.push("## Topic marks", "");
    for (const m of input.marks)
      out.push(`- ${m.status}: ${plain(m.topic)}${m.note ? ` · ${plain(m.note)}` : ""}${m.source === "agent" ? " (tutor)" : ""}`);
    out.push("");
  }
  if (input.parked.length) {
    out.push("## Parked thoughts", "");
    for (const p of input.parked) out.push(`- ${plain(p.text)} (${p.status}${p.source === "agent" ? ", tutor" : ""})`);
    out.push("");
  }
  if (input.chat.length) {
    out.push("## Conversation", "");
    for (const m of input.chat) out.push(`**${m.from === "learner" ? "You" : "Tutor"}:**`, "", fenced(m.text), "");
  } else if (input.transcript) {
    out.push("## Transcript", "", fenced(input.transcript), "");
  }
  return `${out.join("\n").replace(/\n+$/, "")}\n`;
}
