// One entry of a chat: the learner's message (with its photos), the tutor's answer as Markdown, a
// folded thought, a tool card, a permission question, a stopped turn, a refusal that names the fix.
import { Markdown } from "../components/Markdown";
import { attachmentUrl } from "../components/markdown";
import type { ChatItem } from "./acp-conversation";
import { SignIn } from "./SignIn";

export function ChatEntry({
  item,
  sessionId,
  streaming = false,
  onAnswer,
  anchor,
}: {
  item: ChatItem;
  sessionId: string;
  /** The element id a search hit links to (the session page's conversation). */
  anchor?: string;
  /** This answer is still arriving: half-written marks are closed as they will be. */
  streaming?: boolean;
  onAnswer?: (requestId: string, optionId: string) => void;
}) {
  switch (item.type) {
    case "learner":
      return (
        <li className="msg learner" data-testid="learner-message" id={anchor}>
          {item.attachments.length > 0 ? (
            <span className="msg-attachments">
              {item.attachments.map((a) =>
                a.kind === "image" ? (
                  <img key={a.name} src={attachmentUrl(sessionId, a.name)} alt={`Attached photo ${a.name}`} data-testid="sent-photo" />
                ) : (
                  <a key={a.name} href={attachmentUrl(sessionId, a.name)} className="badge" download>
                    {a.name}
                  </a>
                ),
              )}
            </span>
          ) : null}
          {item.text}
        </li>
      );
    case "agent":
      return (
        <li className="msg agent" data-testid="agent-message" id={anchor} data-stopped={item.stopped ? "true" : undefined}>
          <Markdown text={item.text} sessionId={sessionId} streaming={streaming} />
        </li>
      );
    case "thought":
      return (
        <li className="msg thought">
          <details>
            <summary>Thinking</summary>
            <p>{item.text}</p>
          </details>
        </li>
      );
    case "tool":
      return (
        <li className="msg tool" data-testid="tool-call" data-status={item.status}>
          <span className="badge">{item.kind}</span> {item.title} <span className="muted">· {item.status.replace("_", " ")}</span>
        </li>
      );
    case "permission":
      return (
        <li className="msg permission panel" data-testid="permission">
          <p>
            <strong>The tutor asks:</strong> {item.title}
          </p>
          {item.answer === null && onAnswer ? (
            <div className="row">
              {item.options.map((o) => (
                <button
                  key={o.optionId}
                  className={o.kind.startsWith("allow") ? "primary" : ""}
                  onClick={() => onAnswer(item.requestId, o.optionId)}
                >
                  {o.name}
                </button>
              ))}
            </div>
          ) : (
            <p className="muted">Answered: {item.answer ?? "no answer"}</p>
          )}
        </li>
      );
    case "stopped":
      return (
        <li className="msg notice stopped" data-testid="turn-stopped" data-by={item.by}>
          {item.by === "timeout" ? "Stopped: the tutor sent nothing for too long." : "Stopped by you."}
          {item.agentIgnoredStop ? " The tutor did not confirm the stop, so StudyLoop ended the turn; a late answer is ignored." : null}
        </li>
      );
    case "failure":
      return (
        <li className="msg failure" role="alert" data-testid="turn-failure">
          <p>
            <strong>The tutor could not answer.</strong> It said: “{item.text}”
          </p>
          {item.data ? <p className="muted">Details from the agent: {item.data}</p> : null}
          <SignIn methods={item.signInMethods} hint={item.signInHint} tried={item.tried} />
        </li>
      );
    case "notice":
      return <li className="msg notice muted">{item.text}</li>;
  }
}
