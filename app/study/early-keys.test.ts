// The early catcher's key table. What xterm.js itself sends for the same keys is compared in Chromium
// by e2e/study-room.spec.ts (the same keys typed before hydration and into the terminal after it).
import { describe, expect, it } from "vitest";
import { earlyKeyBytes, type EarlyKey } from "./early-keys.ts";

const key = (k: string, mods: Partial<EarlyKey> = {}): EarlyKey => ({
  key: k,
  ctrlKey: false,
  altKey: false,
  metaKey: false,
  shiftKey: false,
  ...mods,
});

describe("earlyKeyBytes", () => {
  it.each([
    [key("a"), "a"],
    [key("A", { shiftKey: true }), "A"],
    [key(" "), " "],
    [key("é"), "é"],
    [key("😀"), "😀"],
    [key("Enter"), "\r"],
    [key("Backspace"), "\x7f"],
    [key("Tab"), "\t"],
    [key("Tab", { shiftKey: true }), "\x1b[Z"],
    [key("Escape"), "\x1b"],
    [key("ArrowUp"), "\x1b[A"],
    [key("ArrowDown"), "\x1b[B"],
    [key("ArrowRight"), "\x1b[C"],
    [key("ArrowLeft"), "\x1b[D"],
    [key("Home"), "\x1b[H"],
    [key("End"), "\x1b[F"],
    [key("Delete"), "\x1b[3~"],
    [key("c", { ctrlKey: true }), "\x03"],
    [key("a", { ctrlKey: true }), "\x01"],
    [key("z", { ctrlKey: true }), "\x1a"],
    [key("[", { ctrlKey: true }), "\x1b"],
    [key("]", { ctrlKey: true }), "\x1d"],
  ])("%j -> %j", (input, bytes) => expect(earlyKeyBytes(input)).toBe(bytes));

  it.each([
    ["Alt with a letter", key("t", { altKey: true })],
    ["Meta with a letter", key("v", { metaKey: true })],
    ["Ctrl-Shift with a letter", key("C", { ctrlKey: true, shiftKey: true })],
    ["Ctrl with a digit", key("1", { ctrlKey: true })],
    ["a modifier alone", key("Shift", { shiftKey: true })],
    ["a function key", key("F5")],
    ["a dead key", key("Dead")],
    ["an unidentified key", key("Unidentified")],
    ["a composition", key("a", { isComposing: true })],
    ["Shift with an arrow", key("ArrowUp", { shiftKey: true })],
  ])("leaves %s alone", (_, input) => expect(earlyKeyBytes(input)).toBeNull());

  it("uses nothing outside its own body (the page inlines its source)", () => {
    const inlined = new Function(`return (${earlyKeyBytes.toString()})`)() as typeof earlyKeyBytes;
    expect(inlined(key("ArrowLeft"))).toBe("\x1b[D");
    expect(inlined(key("x", { ctrlKey: true }))).toBe("\x18");
  });
});
