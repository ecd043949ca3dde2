// The agent's permission questions still open for the learner: each is answered once, by the learner's
// choice or as "cancelled" (Stop, or the agent exiting), and both the question and its answer are recorded.
import crypto from "node:crypto";
import type { RequestPermissionRequest, RequestPermissionResponse } from "@agentclientprotocol/sdk";
import type { AcpEventKind } from "./acp-events.ts";

interface PendingPermission {
  readonly resolve: (response: RequestPermissionResponse) => void;
  readonly optionIds: readonly string[];
}

export class PermissionQuestions {
  private readonly open = new Map<string, PendingPermission>();

  constructor(private readonly emit: (kind: AcpEventKind, payload: Record<string, unknown>) => void) {}

  /** The agent's question: its answer is the learner's, whenever it comes. */
  ask(params: RequestPermissionRequest): Promise<RequestPermissionResponse> {
    return new Promise<RequestPermissionResponse>((resolve) => {
      const requestId = crypto.randomUUID();
      this.open.set(requestId, { resolve, optionIds: params.options.map((o) => o.optionId) });
      this.emit("permission_request", { requestId, toolCall: params.toolCall, options: params.options });
    });
  }

  /** The learner's answer; false when that question is no longer open or has no such option. */
  answer(requestId: string, optionId: string): boolean {
    const pending = this.open.get(requestId);
    if (!pending || !pending.optionIds.includes(optionId)) return false;
    this.open.delete(requestId);
    this.emit("permission_outcome", { requestId, outcome: "selected", optionId });
    pending.resolve({ outcome: { outcome: "selected", optionId } });
    return true;
  }

  cancelAll(): void {
    for (const [requestId, pending] of this.open) {
      this.emit("permission_outcome", { requestId, outcome: "cancelled" });
      pending.resolve({ outcome: { outcome: "cancelled" } });
    }
    this.open.clear();
  }
}
