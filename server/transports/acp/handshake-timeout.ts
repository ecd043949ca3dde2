// What a start that timed out in the ACP handshake says (issue 42: gemini with a key and opencode said
// only "did not answer ... within 45 s"): the agent's last lines on its error output, and the likely
// cause read from them: no network to its provider, or a slow first start. Pure.
import { lastStderrLines } from "./acp-failure.ts";

/** Lines of the agent's error output quoted. */
const QUOTED_LINES = 5;
/** What an agent that cannot reach its provider writes (Node, Rust and Go resolvers and clients). */
const NETWORK =
  /ENOTFOUND|EAI_AGAIN|getaddrinfo|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|lookup address|name or service not known|temporary failure in name resolution|network|fetch failed|socket hang up|proxy|could not connect|connection (?:refused|reset|timed out)|dns|offline/i;

export function handshakeTimeoutMessage(step: "initialize" | "opening the conversation", seconds: number, stderrTail: string): string {
  const lines = lastStderrLines(stderrTail, QUOTED_LINES);
  const head = `the agent did not answer the protocol handshake${step === "initialize" ? "" : ` (${step})`} within ${seconds} s.`;
  const cause = lines.some((l) => NETWORK.test(l))
    ? "It seems unable to reach its provider over the network: check that this machine is online (and any proxy it needs), then start again."
    : "Likely causes: no network to its provider, or a slow first start (an agent may install or update itself, or load its models, the first time): start again; if it keeps happening, run it in a terminal on this machine to see what it waits for, or give it longer with STUDYLOOP_ACP_HANDSHAKE_SECONDS.";
  const quoted = lines.length
    ? ` Its last lines on its error output: ${lines.map((l) => `"${l}"`).join("; ")}.`
    : " It wrote nothing on its error output.";
  return `${head} ${cause}${quoted}`;
}
