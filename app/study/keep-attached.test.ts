import { describe, expect, it } from "vitest";
import type { SessionView } from "@/server/sessions/session-view";
import { keepAttached, type AttachSocket, type AttachStatus } from "./keep-attached";

type Ack = Parameters<Parameters<Parameters<typeof keepAttached>[1]["request"]>[0]>[0];

/** A socket that is connected, and a view whose acks the test answers in the order it chooses. */
function harness() {
  const handlers = new Map<string, (...args: never[]) => void>();
  const socket = {
    connected: true,
    on: (event: string, handler: (...args: never[]) => void) => handlers.set(event, handler),
    off: (event: string) => handlers.delete(event),
  } as unknown as AttachSocket;
  const acks: ((result: Ack) => void)[] = [];
  const seen = { status: "connecting" as AttachStatus, error: null as string | null, attached: 0 };
  const attachment = keepAttached(socket, {
    sessionId: "s1",
    request: (ack) => acks.push(ack),
    onAttached: () => seen.attached++,
    setStatus: (update) => (seen.status = update(seen.status)),
    setError: (message) => (seen.error = message),
    onEnded: () => undefined,
  });
  const ok = { ok: true, value: { session: {} as SessionView } } as Ack;
  /** Answers the n-th attach request's ack: attached. */
  const answer = (n: number) => acks.at(n)!(ok);
  return { attachment, acks, seen, answer };
}

describe("keepAttached", () => {
  it("attaches once more after a detach, and says so after the second", () => {
    const { attachment, acks, seen, answer } = harness();
    answer(0);
    expect(seen).toMatchObject({ status: "live", attached: 1 });
    attachment.detached("gone");
    expect(acks).toHaveLength(2);
    answer(1);
    expect(seen).toMatchObject({ status: "live", error: null, attached: 2 });
    attachment.detached("gone");
    expect(acks).toHaveLength(2);
    expect(seen).toMatchObject({ status: "error", error: "gone" });
  });

  it("a detach that comes before its attach's ack is not shown as live when the ack arrives", () => {
    const { attachment, acks, seen, answer } = harness();
    attachment.detached("gone"); // the lane's frame overtook the socket's ack
    answer(0);
    expect(seen.attached).toBe(0);
    expect(acks).toHaveLength(2);
    attachment.detached("gone");
    answer(1);
    expect(acks).toHaveLength(2);
    expect(seen).toMatchObject({ status: "error", error: "gone", attached: 0 });
  });

  it("something restored in between makes the next detach a first one again", () => {
    const { attachment, acks, seen, answer } = harness();
    answer(0);
    attachment.detached("gone");
    answer(1);
    attachment.restored();
    attachment.detached("gone");
    expect(acks).toHaveLength(3);
    answer(2);
    expect(seen).toMatchObject({ status: "live", error: null, attached: 3 });
  });

  it("after release, a detach does nothing", () => {
    const { attachment, acks, seen, answer } = harness();
    answer(0);
    attachment.release();
    attachment.detached("gone");
    expect(acks).toHaveLength(1);
    expect(seen.status).toBe("live");
  });
});
