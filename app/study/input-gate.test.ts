import { describe, expect, it } from "vitest";
import { HELD_INPUT_MAX_CHARS, InputGate } from "./input-gate";

type Input = { data: string; binary?: boolean };

function gate() {
  const sent: Input[] = [];
  return { sent, gate: new InputGate<Input>((input) => sent.push(input)) };
}

describe("InputGate", () => {
  it("holds typing until the attach is acknowledged, then sends it in order before anything newer", () => {
    const { sent, gate: g } = gate();
    g.push({ data: "l" });
    g.push({ data: "s" });
    g.push({ data: "\x1b[M !!", binary: true });
    expect(sent).toEqual([]);
    g.attached();
    g.push({ data: "\r" });
    expect(sent).toEqual([{ data: "l" }, { data: "s" }, { data: "\x1b[M !!", binary: true }, { data: "\r" }]);
  });

  it("holds again after the connection drops, and sends nothing twice", () => {
    const { sent, gate: g } = gate();
    g.attached();
    g.push({ data: "a" });
    g.detached();
    g.push({ data: "b" });
    expect(sent.map((i) => i.data)).toEqual(["a"]);
    g.attached();
    g.attached();
    expect(sent.map((i) => i.data)).toEqual(["a", "b"]);
  });

  it("keeps at most a paste's worth while detached, the oldest first", () => {
    const { sent, gate: g } = gate();
    const big = "x".repeat(HELD_INPUT_MAX_CHARS - 1);
    g.push({ data: big });
    g.push({ data: "y" });
    g.push({ data: "zz" });
    g.attached();
    expect(sent.map((i) => i.data)).toEqual([big, "y"]);
  });

  it("blocked for keys typed earlier elsewhere: sends nothing until they come, then them first", () => {
    const { sent, gate: g } = gate();
    g.block();
    g.push({ data: "c" });
    g.attached();
    g.push({ data: "d" });
    expect(sent).toEqual([]);
    g.unblock([{ data: "a" }, { data: "b" }]);
    g.push({ data: "e" });
    expect(sent.map((i) => i.data)).toEqual(["a", "b", "c", "d", "e"]);
    g.unblock([{ data: "z" }]);
    expect(sent.map((i) => i.data)).toEqual(["a", "b", "c", "d", "e"]);
  });

  it("unblocked before the attach: the earlier keys still wait for it, first", () => {
    const { sent, gate: g } = gate();
    g.block();
    g.push({ data: "b" });
    g.unblock([{ data: "a" }]);
    expect(sent).toEqual([]);
    g.attached();
    expect(sent.map((i) => i.data)).toEqual(["a", "b"]);
  });
});
