import { describe, expect, it } from "vitest";
import { ParkSchema, StartSessionSchema, TopicMarkSchema } from "../api/schemas.ts";
import { PairRequestSchema } from "./access-control.ts";
import { EditCardSchema, NewCardSchema } from "../cards/card-schemas.ts";
import { PromptSchema } from "../realtime/payloads.ts";
import { forbiddenControl, neutraliseText, printable } from "./safe-text.ts";

describe("safe text", () => {
  it.each([
    ["plain", "line", "closures", undefined],
    ["NUL", "line", "a\u0000b", "\u0000"],
    ["newline in a line", "line", "a\nb", "\n"],
    ["newline in text", "text", "a\nb\tc", undefined],
    ["ESC in text", "text", "a\u001b]52;c;aGk=\u0007", "\u001b"],
    ["DEL", "text", "a\u007f", "\u007f"],
    ["C1 CSI", "text", "a\u009b2J", "\u009b"],
    ["right-to-left text", "line", "שלום closures", undefined],
  ] as const)("%s", (_name, kind, text, found) => {
    expect(forbiddenControl(text, kind)).toBe(found);
  });

  it("removes bidi overrides and isolates, keeps right-to-left letters", () => {
    expect(neutraliseText("rtl\u202Egnp.exe", "line")).toBe("rtlgnp.exe");
    expect(neutraliseText("\u2066a\u2069 שלום", "line")).toBe("a שלום");
    expect(neutraliseText("a\r\nb\rc", "text")).toBe("a\nb\nc");
  });

  it("prints controls and bidi controls as visible escapes", () => {
    expect(printable("\u001b]52;c;aGk=\u0007x\u202E")).toBe("\\x1b]52;c;aGk=\\x07x\\u202e");
    expect(printable("a\nb")).toBe("a\\x0ab");
    expect(printable("a\nb", { keepNewlines: true })).toBe("a\nb");
    expect(printable("é ü 中")).toBe("é ü 中");
  });
});

describe("the schemas apply the rules", () => {
  it("refuses a topic with control characters, with a sentence", () => {
    const parsed = StartSessionSchema.safeParse({ topic: "a\u0000b\nc", energy: 5, agent: "tutor" });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toMatch(/plain text on one line/);
  });

  it("stores a parked thought with the bidi override removed", () => {
    expect(ParkSchema.parse({ text: " rtl\u202Egnp.exe " }).text).toBe("rtlgnp.exe");
  });

  it("a thought made only of bidi controls is empty, so refused", () => {
    expect(ParkSchema.safeParse({ text: "\u202E\u202E" }).success).toBe(false);
  });

  it("refuses escape sequences in a mark's topic and note, allows lines in the note", () => {
    expect(TopicMarkSchema.safeParse({ topic: "x\u001bc", status: "win" }).success).toBe(false);
    expect(TopicMarkSchema.safeParse({ topic: "x", status: "win", note: "\u001b[2J" }).success).toBe(false);
    expect(TopicMarkSchema.parse({ topic: "x", status: "win", note: "line 1\r\nline 2" }).note).toBe("line 1\nline 2");
  });

  it("refuses control characters in a device name", () => {
    expect(PairRequestSchema.safeParse({ token: "t", name: "phone\u009b" }).success).toBe(false);
    expect(PairRequestSchema.parse({ token: "t", name: "\u202Ephone" }).name).toBe("phone");
  });

  it("refuses escape sequences on a card's sides and topic, removes bidi controls, keeps lines", () => {
    expect(NewCardSchema.safeParse({ front: "what is \u001b[2J?", back: "x" }).success).toBe(false);
    expect(NewCardSchema.safeParse({ front: "q", back: "a", topic: "t\nu" }).success).toBe(false);
    expect(EditCardSchema.safeParse({ back: "\u009b2J" }).error?.issues[0]?.message).toMatch(/back/);
    expect(NewCardSchema.parse({ front: " \u202Eq\r\nline 2 ", back: "a" }).front).toBe("q\nline 2");
  });

  it("refuses control characters in a chat message, keeps its lines and tabs", () => {
    const sessionId = "00000000-0000-4000-8000-000000000000";
    expect(PromptSchema.safeParse({ sessionId, text: "hi \u001b]52;c;aGk=\u0007" }).success).toBe(false);
    expect(PromptSchema.parse({ sessionId, text: "a\r\n\tb\u2066" }).text).toBe("a\n\tb");
  });
});
