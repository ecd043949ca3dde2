// The full conversation of an ACP session, read back from its stored events.
import type { AcpEventRecord } from "@/server/transports/acp/acp-events";
import { EMPTY_CONVERSATION, foldEvents } from "../../study/acp-conversation";
import { ChatEntry } from "../../study/ChatEntry";

export function AcpTranscript({ events, sessionId }: { events: AcpEventRecord[]; sessionId: string }) {
  const conversation = foldEvents(EMPTY_CONVERSATION, events);
  if (conversation.items.length === 0) return <p className="muted">Nothing was said in this session.</p>;
  return (
    <ol className="messages" data-testid="acp-transcript">
      {conversation.items.map((item) => (
        // A search hit on a message links here (#message-<seq of its first event>).
        <ChatEntry key={item.key} item={item} sessionId={sessionId} anchor={`message-${item.key.slice(1)}`} />
      ))}
    </ol>
  );
}
