// The attachment quota: the decision (table), the usage read from real folders, and uploads taken one
// at a time so that two at once cannot both take the last room.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { attachmentUsage, oneUploadAtATime, quotaLimits, quotaRefusal } from "./attachment-quota.ts";
import { attachmentsDir, detectType, storeAttachment } from "./attachments.ts";

const A = "0b5c1a52-5f0e-4bd5-9d49-a8c0e8b1d6f3";
const B = "11111111-2222-4333-8444-555555555555";
const limits = quotaLimits({ STUDYLOOP_ATTACHMENTS_SESSION_MB: 1, STUDYLOOP_ATTACHMENTS_TOTAL_MB: 1.5 });

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) fs.rmSync(r, { recursive: true, force: true });
});
const tempRoot = () => {
  const r = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-quota-"));
  roots.push(r);
  return r;
};

describe("quotaRefusal", () => {
  it.each([
    ["room in both", { session: 0, total: 0 }, 1_000_000, null],
    ["exactly full after it", { session: 400_000, total: 900_000 }, 600_000, null],
    [
      "the session's quota",
      { session: 900_000, total: 900_000 },
      200_000,
      /^This session already keeps 0\.9 MB of attachments, and 1 MB is the most one session keeps: nothing was stored\./,
    ],
    [
      "the total quota",
      { session: 0, total: 1_400_000 },
      200_000,
      /^Your sessions already keep 1\.4 MB of attachments, and 1\.5 MB is the most StudyLoop keeps in all: nothing was stored\./,
    ],
  ])("%s", (_name, usage, incoming, expected) => {
    const sentence = quotaRefusal(usage, incoming, limits);
    if (expected === null) expect(sentence).toBeNull();
    else expect(sentence).toMatch(expected);
  });
});

describe("attachmentUsage", () => {
  it("adds up each session's stored files; links and other folders do not count", () => {
    const root = tempRoot();
    const text = new Uint8Array(Buffer.from("a".repeat(300_000)));
    const type = detectType(text)!;
    storeAttachment(path.join(root, A), "notes.txt", text, type);
    storeAttachment(path.join(root, A), "notes.txt", text, type);
    storeAttachment(path.join(root, B), "more.txt", text, type);
    fs.symlinkSync("/etc/passwd", path.join(attachmentsDir(path.join(root, B)), "9-link.txt"));
    fs.mkdirSync(path.join(root, "not-a-session", "attachments"), { recursive: true });
    fs.writeFileSync(path.join(root, "not-a-session", "attachments", "x"), "x".repeat(1000));
    expect(attachmentUsage(root, A)).toEqual({ session: 600_000, total: 900_000 });
    expect(attachmentUsage(root, "22222222-2222-4333-8444-555555555555")).toEqual({ session: 0, total: 900_000 });
    expect(attachmentUsage(path.join(root, "missing"), A)).toEqual({ session: 0, total: 0 });
  });

  it("uploads past the quota: each one checked after the one before it is stored, nothing stored on refusal", async () => {
    const root = tempRoot();
    const file = new Uint8Array(Buffer.from("b".repeat(300_000)));
    const type = detectType(file)!;
    // Ten at once, as a phone sends a batch: three fit in 1 MB, the rest are refused.
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, () =>
        oneUploadAtATime(() => {
          const over = quotaRefusal(attachmentUsage(root, A), file.length, limits);
          return over ?? storeAttachment(path.join(root, A), "photo.txt", file, type).name;
        }),
      ),
    );
    expect(outcomes.slice(0, 3)).toEqual(["1-photo.txt", "2-photo.txt", "3-photo.txt"]);
    expect(outcomes.slice(3).every((o) => o.startsWith("This session already keeps 0.9 MB"))).toBe(true);
    expect(fs.readdirSync(attachmentsDir(path.join(root, A))).sort()).toEqual(["1-photo.txt", "2-photo.txt", "3-photo.txt"]);
  });
});
