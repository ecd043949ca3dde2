"use client";
import { useEffect, useState } from "react";
import type { AgentListing } from "@/server/agents/agent-registry";
import type { SessionStateView } from "@/server/sessions/session-view";
import type { NextSessionSuggestions } from "@/server/study/history";
import type { FocusPlanKind } from "@/common/study/focus-plan";
import { FocusPlanChoice, ForThisSession, TopicSuggestions, useSuggestions } from "./StartChoices";
import type { AgentFailureDetails } from "@/server/transports/acp/acp-failure";
import { SignIn } from "./SignIn";
import { loadRemembered, saveRemembered } from "./remembered-choices";
import { DueBeforeStart } from "../review/DueBeforeStart";
import { InlineCode } from "../components/InlineCode";
import { callApi } from "../components/api-client";
import { TOPIC_MAX_CHARS } from "@/common/study/topic-limits";

export function StartForm({
  agents,
  onStarted,
  onFailed,
  suggestions: initialSuggestions = null,
}: {
  agents: AgentListing[];
  onStarted: (state: SessionStateView) => void;
  /** A start that failed and ended its session: this form explains it, the page need not again. */
  onFailed?: (sessionId: string) => void;
  suggestions?: NextSessionSuggestions | null;
}) {
  const firstAvailable = agents.find((a) => a.available)?.name ?? agents[0]?.name ?? "";
  const [topic, setTopic] = useState("");
  const [energy, setEnergy] = useState(5);
  const [agent, setAgent] = useState(firstAvailable);
  const [transport, setTransport] = useState<"pty" | "acp">("pty");
  const [focusPlan, setFocusPlan] = useState<FocusPlanKind>("energy");
  const suggestions = useSuggestions(initialSuggestions);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [conflict, setConflict] = useState(false);
  const [refusal, setRefusal] = useState<{ label: string; details: AgentFailureDetails } | null>(null);
  const chosen = agents.find((a) => a.name === agent);
  const speaksAcp = chosen?.transports.includes("acp") ?? false;
  const chatMissing = speaksAcp && chosen?.chat?.available === false;
  const terminalMissing = chosen?.terminal?.available === false;
  // A way of showing the tutor whose program is not installed cannot be chosen (issue 42): the other is used.
  const shownAs: "pty" | "acp" = !speaksAcp || chatMissing ? "pty" : terminalMissing ? "acp" : transport;

  // The focus plan, agent and view chosen last time on this device: read after hydration (localStorage
  // does not exist on the server, and the first render must match the server's).
  useEffect(() => {
    /* eslint-disable react-hooks/set-state-in-effect */
    const remembered = loadRemembered();
    if (remembered.focusPlan) setFocusPlan(remembered.focusPlan);
    if (remembered.agent && agents.some((a) => a.name === remembered.agent)) setAgent(remembered.agent);
    if (remembered.transport) setTransport(remembered.transport);
    /* eslint-enable react-hooks/set-state-in-effect */
  }, [agents]);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setConflict(false);
    setRefusal(null);
    const started = await callApi("/api/session/start", {
      body: { topic, energy, agent, transport: shownAs, focusPlan },
      refused: (status) => `The server refused to start the session (HTTP ${status}).`,
    });
    if (!started.ok) {
      const body = started.body as { agentFailure?: AgentFailureDetails; sessionId?: string } | undefined;
      setBusy(false);
      setError(started.error);
      setConflict(started.status === 409);
      if (body?.agentFailure) setRefusal({ label: chosen?.label ?? agent, details: body.agentFailure });
      if (body?.sessionId) onFailed?.(body.sessionId);
      return;
    }
    saveRemembered({ focusPlan, agent, transport });
    // The page takes the whole state, as the server now has it.
    const state = await callApi<SessionStateView>("/api/session/state", { cache: "no-store" });
    setBusy(false);
    if (state.ok) onStarted(state.value);
    else setError(state.error);
  };

  const endOther = async () => {
    await callApi("/api/session/end", { method: "POST" });
    setError(null);
    setConflict(false);
  };

  return (
    <form className="panel stack" onSubmit={(e) => void submit(e)} aria-labelledby="start-heading">
      <h2 id="start-heading">Start a study session</h2>
      <ForThisSession suggestions={suggestions} onPick={setTopic} />
      <div>
        <label htmlFor="topic">Topic</label>
        <input
          id="topic"
          name="topic"
          type="text"
          required
          maxLength={TOPIC_MAX_CHARS}
          value={topic}
          onChange={(e) => setTopic(e.target.value)}
          placeholder="e.g. JavaScript closures"
          list="recent-topics"
          autoComplete="off"
        />
        <TopicSuggestions topics={suggestions?.recentTopics ?? []} onPick={setTopic} />
        <DueBeforeStart topic={topic} />
      </div>
      <div>
        <label htmlFor="energy">
          Energy: {energy}/10 <span className="muted">({energy < 4 ? "low" : energy >= 7 ? "high" : "medium"})</span>
        </label>
        <input id="energy" name="energy" type="range" min={1} max={10} value={energy} onChange={(e) => setEnergy(Number(e.target.value))} />
      </div>
      <FocusPlanChoice kind={focusPlan} energy={energy} onChange={setFocusPlan} />
      <div>
        <label htmlFor="agent">Tutor agent</label>
        <select id="agent" name="agent" value={agent} onChange={(e) => setAgent(e.target.value)}>
          {agents.map((a) => (
            <option key={a.name} value={a.name}>
              {a.label}
              {a.available ? "" : " (not installed)"}
            </option>
          ))}
        </select>
        {chosen?.blurb ? (
          <p className="muted" data-testid="agent-blurb">
            {chosen.blurb}
          </p>
        ) : null}
        {chosen && !chosen.available ? (
          <p className="muted">
            <InlineCode text={chosen.installHint ?? ""} />
          </p>
        ) : null}
        {chosen?.available && terminalMissing ? (
          <p className="muted" data-testid="terminal-install-hint">
            <InlineCode text={chosen.terminal.installHint ?? ""} />
          </p>
        ) : null}
      </div>
      {speaksAcp ? (
        <fieldset className="choice">
          <legend>Show the tutor as</legend>
          <label>
            <input
              type="radio"
              name="transport"
              value="pty"
              checked={shownAs === "pty"}
              disabled={terminalMissing}
              onChange={() => setTransport("pty")}
            />{" "}
            a terminal{terminalMissing ? " (not installed)" : ""}
          </label>
          <label>
            <input
              type="radio"
              name="transport"
              value="acp"
              checked={shownAs === "acp"}
              disabled={chatMissing}
              aria-describedby={chatMissing ? "chat-install-hint" : undefined}
              onChange={() => setTransport("acp")}
            />{" "}
            a chat (Agent Client Protocol: reads best on a phone){chatMissing ? " (not installed)" : ""}
          </label>
          {chatMissing && chosen?.available ? (
            <p className="muted" id="chat-install-hint" data-testid="chat-install-hint">
              <InlineCode text={chosen?.chat?.installHint ?? ""} />
            </p>
          ) : null}
        </fieldset>
      ) : null}
      {error && refusal ? (
        <div role="alert" className="error" data-testid="start-refusal">
          <p>
            <strong>{refusal.label} could not start.</strong> It said: “{refusal.details.agentMessage}”
          </p>
          {refusal.details.data ? <p>Details from the agent: {refusal.details.data}</p> : null}
          {refusal.details.agentStderr ? (
            <p data-testid="start-refusal-stderr">
              Its last words on its error output: <code>{refusal.details.agentStderr}</code>
            </p>
          ) : null}
          {refusal.details.needsSignIn ? (
            <SignIn methods={refusal.details.signInMethods} hint={refusal.details.signInHint} tried={refusal.details.tried} />
          ) : null}
          <p className="muted">The session was ended; nothing was lost. Fix this, then start again.</p>
        </div>
      ) : error ? (
        <div role="alert" className="error">
          {error}
          {conflict ? (
            <div className="row">
              <button type="button" className="danger" onClick={() => void endOther()}>
                End the other session
              </button>
            </div>
          ) : null}
        </div>
      ) : null}
      <div>
        <button
          className="primary"
          type="submit"
          disabled={busy || !topic.trim()}
          aria-describedby={topic.trim() ? undefined : "start-why"}
        >
          {busy ? "Starting…" : "Start session"}
        </button>
        {topic.trim() ? null : (
          <span className="muted" id="start-why">
            {" "}
            Name a topic to start.
          </span>
        )}
      </div>
    </form>
  );
}
