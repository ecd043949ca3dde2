#!/usr/bin/env node
// The demo tutor as a chat: StudyLoop's chat tried without any AI (README, "Try it without an AI"). A
// scripted agent on the Agent Client Protocol (the SDK's agent side, over stdio, as real ACP agents
// speak it) that answers every message with what a real tutor's turn holds: a plan, a streamed
// Markdown answer (a table, highlighted code, math), and a tool call that asks the learner's
// permission first; allowed, the tool really runs `studyloop card` (the launcher on the session's PATH),
// so the card is on the Review page. Stop cancels the turn.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { Readable, Writable } from "node:stream";
import { agent, ndJsonStream, PROTOCOL_VERSION } from "@agentclientprotocol/sdk";
import { chatAnswer, topicOf } from "./demo-replies.mjs";

/** Characters per streamed piece, and the pause between pieces: an answer that visibly streams. */
const CHUNK_CHARS = 24;
const CHUNK_PAUSE_MS = 20;

/** sessionId -> { topic, turn: AbortController | null } */
const sessions = new Map();
let made = 0;

const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function topicIn(cwd) {
  try {
    return topicOf(fs.readFileSync(path.join(cwd ?? ".", "TUTOR.md"), "utf8"));
  } catch {
    return topicOf("");
  }
}

/** Runs `studyloop` with these arguments; resolves to its output and whether it succeeded. */
function studyloop(args) {
  return new Promise((resolve) => {
    const child = spawn("studyloop", args, { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.once("error", (error) => resolve({ ok: false, output: `studyloop could not run (${error.code ?? error.message})` }));
    child.once("close", (code) => resolve({ ok: code === 0, output: output.trim() }));
  });
}

const plan = (states) => ({
  sessionUpdate: "plan",
  entries: [
    { content: "Read your message", priority: "high", status: states[0] },
    { content: "Answer with an example", priority: "high", status: states[1] },
    { content: "Offer a review card (asks you first)", priority: "medium", status: states[2] },
  ],
});

const app = agent({ name: "studyloop-demo-chat" })
  .onRequest("initialize", () => ({
    protocolVersion: PROTOCOL_VERSION,
    agentCapabilities: { loadSession: false, promptCapabilities: {} },
    agentInfo: { name: "studyloop-demo-chat", title: "Demo tutor (no AI)", version: "1.0.0" },
    authMethods: [],
  }))
  .onRequest("session/new", ({ params }) => {
    const sessionId = `demo-chat-${++made}`;
    sessions.set(sessionId, { topic: topicIn(params.cwd), turn: null });
    return { sessionId };
  })
  .onNotification("session/cancel", ({ params }) => sessions.get(params.sessionId)?.turn?.abort())
  .onRequest("session/prompt", async ({ params, client }) => {
    const session = sessions.get(params.sessionId) ?? { topic: topicOf(""), turn: null };
    const turn = new AbortController();
    session.turn = turn;
    const sessionId = params.sessionId;
    const update = (u) => client.notify("session/update", { sessionId, update: u });
    const say = (text) => update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text } });
    const cancelled = { stopReason: "cancelled" };
    try {
      const text = params.prompt.map((b) => (b.type === "text" ? b.text : "")).join(" ");
      await update(plan(["completed", "in_progress", "pending"]));
      const answer = chatAnswer(text, session.topic);
      for (let at = 0; at < answer.length; at += CHUNK_CHARS) {
        if (turn.signal.aborted) return cancelled;
        await say(answer.slice(at, at + CHUNK_CHARS));
        await wait(CHUNK_PAUSE_MS);
      }
      await update(plan(["completed", "completed", "in_progress"]));
      const front = `What did I ask the demo tutor about ${session.topic}?`;
      const back = text.trim().slice(0, 300) || "(an empty message)";
      const toolCallId = "review-card";
      const pending = {
        toolCallId,
        title: `Write a review card: studyloop card "${front}" --topic "${session.topic}"`,
        kind: "execute",
        status: "pending",
      };
      await update({ sessionUpdate: "tool_call", ...pending });
      const permission = await client
        .request(
          "session/request_permission",
          {
            sessionId,
            toolCall: pending,
            options: [
              { optionId: "allow", name: "Write the card", kind: "allow_once" },
              { optionId: "reject", name: "No card", kind: "reject_once" },
            ],
          },
          { signal: turn.signal },
        )
        .catch(() => ({ outcome: { outcome: "cancelled" } }));
      if (turn.signal.aborted || permission.outcome.outcome === "cancelled") return cancelled;
      if (permission.outcome.optionId !== "allow") {
        await update({ sessionUpdate: "tool_call_update", toolCallId, status: "failed", title: "No card written (you said no)" });
        await update(plan(["completed", "completed", "completed"]));
        await say("\n\nNo card, then. Ask me anything else.");
        return { stopReason: "end_turn" };
      }
      await update({ sessionUpdate: "tool_call_update", toolCallId, status: "in_progress" });
      const ran = await studyloop(["card", front, back, "--topic", session.topic]);
      await update({
        sessionUpdate: "tool_call_update",
        toolCallId,
        status: ran.ok ? "completed" : "failed",
        title: ran.ok ? `Card written: ${front}` : `The card was not written: ${ran.output}`,
      });
      await update(plan(["completed", "completed", "completed"]));
      await say(ran.ok ? "\n\nThe card is on the **Review** page now." : `\n\nThe card could not be written: ${ran.output}`);
      return { stopReason: "end_turn" };
    } finally {
      session.turn = null;
    }
  });

app.connect(ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
