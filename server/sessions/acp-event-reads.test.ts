// The stored conversation read back: in order after a number, a hand-edited payload read as empty, and
// a damaged database named as the chat's read (a real SQLite file).
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { applyMigrations } from "../db/migrate.ts";
import { openDatabase } from "../db/client.ts";
import { DbUnavailable } from "../db/db-faults.ts";
import { payloadOf, readAcpEvents } from "./acp-event-reads.ts";

describe("payloadOf", () => {
  it.each([
    ['{"text":"hi"}', { text: "hi" }],
    ["{}", {}],
    ["[1,2]", {}],
    ["null", {}],
    ["42", {}],
    ['"text"', {}],
    ["{not json", {}],
    ["", {}],
  ])("%s reads as %j", (text, expected) => {
    expect(payloadOf(text)).toEqual(expected);
  });
});

describe("readAcpEvents", () => {
  it("reads the events after a number, oldest first, with a hand-edited payload as empty", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-chat-events-"));
    const file = path.join(dataDir, "studyloop.db");
    applyMigrations(file);
    const db = openDatabase(file);
    const sessionId = crypto.randomUUID();
    await db.studySession.create({ data: { id: sessionId, topic: "chat", energy: 5, agent: "claude", transport: "acp", status: "live" } });
    const at = new Date("2026-12-04T09:00:00Z");
    for (const [seq, payload] of [
      [3, '{"text":"third"}'],
      [1, '{"text":"first"}'],
      [2, "edited by hand"],
    ] as const) {
      await db.acpEvent.create({ data: { sessionId, seq, kind: "user_message", payload, createdAt: at } });
    }

    const all = await readAcpEvents(db, sessionId);
    expect(all.map((e) => [e.seq, e.payload])).toEqual([
      [1, { text: "first" }],
      [2, {}],
      [3, { text: "third" }],
    ]);
    expect(all[0]!.at).toEqual(at);
    expect((await readAcpEvents(db, sessionId, 2)).map((e) => e.seq)).toEqual([3]);
    expect(await readAcpEvents(db, crypto.randomUUID())).toEqual([]);

    await db.$disconnect();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("a damaged database file is a fault that names the chat's read", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-chat-events-"));
    const file = path.join(dataDir, "studyloop.db");
    fs.writeFileSync(file, "this is not a database ".repeat(200));
    const db = openDatabase(file);
    const read = readAcpEvents(db, crypto.randomUUID());
    await expect(read).rejects.toBeInstanceOf(DbUnavailable);
    await expect(read).rejects.toThrow(/read the chat/);
    await db.$disconnect();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});
