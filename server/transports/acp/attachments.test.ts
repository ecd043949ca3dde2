// Attachments: the type comes from the bytes, the agent's capabilities decide, names are safe.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  ATTACHMENT_LIMITS,
  bodyLimitFor,
  contentBlock,
  detectType,
  readAttachment,
  refusal,
  storeAttachment,
  storedName,
} from "./attachments.ts";

const bytes = (hex: string) => Buffer.from(hex.replace(/ /g, ""), "hex");
const all = { image: true, embeddedContext: true };

describe("detectType", () => {
  it.each([
    ["ffd8ffe0 0010", "image/jpeg"],
    ["89504e47 0d0a1a0a 00", "image/png"],
    ["47494638 3961", "image/gif"],
    ["52494646 00000000 57454250", "image/webp"],
    ["25504446 2d312e37", "application/pdf"],
    [Buffer.from("def f(x):\n    return x*2\n").toString("hex"), "text/plain"],
    [Buffer.from("Grüße, π ≈ 3.14").toString("hex"), "text/plain"],
  ])("%s is %s", (hex, mimeType) => {
    expect(detectType(bytes(hex))?.mimeType).toBe(mimeType);
  });

  it.each([
    ["3c3f786d 6c00", "binary with a NUL"],
    ["c328", "invalid UTF-8"],
    ["", "empty"],
  ])("%s (%s) is not a type we send", (hex) => {
    expect(detectType(bytes(hex))).toBeNull();
  });

  it("believes the bytes, not the name: an .exe renamed .png is not an image", () => {
    expect(detectType(bytes("4d5a9000 0300 0000"))).toBeNull();
  });
});

describe("refusal", () => {
  const png = detectType(bytes("89504e470d0a1a0a"))!;
  const text = detectType(Buffer.from("notes"))!;
  it.each([
    [0, png, all, /empty/],
    [ATTACHMENT_LIMITS.MAX_BYTES + 1, png, all, /too large: 10 MB/],
    [10, null, all, /Only photos/],
    [10, png, { image: false, embeddedContext: true }, /does not accept images/],
    [10, text, { image: true, embeddedContext: false }, /does not accept files/],
  ])("size %d of %j is refused", (size, type, support, message) => {
    expect(refusal(size, type, support)).toMatch(message);
  });
  it("lets a photo through to an agent that takes images", () => {
    expect(refusal(10, png, all)).toBeNull();
  });
});

describe("names and storage", () => {
  it.each([
    [1, "IMG_0042.JPG", "jpg", "1-img-0042.jpg"],
    [2, "../../etc/passwd", "txt", "2-passwd.txt"],
    [3, "", "png", "3-file.png"],
    [4, "Übung 3 (Lösung).pdf", "pdf", "4-bung-3-l-sung.pdf"],
  ])("%d %j -> %s", (n, original, ext, expected) => {
    expect(storedName(n, original, ext)).toBe(expected);
  });

  it("stores without overwriting, reads back by name only, and makes content blocks", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-att-"));
    const png = bytes("89504e470d0a1a0a0000");
    const a = storeAttachment(dir, "photo.png", png, detectType(png)!);
    const b = storeAttachment(dir, "photo.png", png, detectType(png)!);
    expect([a.name, b.name]).toEqual(["1-photo.png", "2-photo.png"]);
    expect(readAttachment(dir, "../1-photo.png")).toBeNull();
    const found = readAttachment(dir, a.name)!;
    expect(contentBlock(found.stored, found.bytes, found.file)).toMatchObject({
      type: "image",
      mimeType: "image/png",
      data: png.toString("base64"),
    });
    fs.rmSync(dir, { recursive: true });
  });

  it("lets only the upload path past the gate's JSON limit", () => {
    expect(bodyLimitFor("/api/sessions/6f1c2a9e-0000-4000-8000-000000000001/attachments", 65536)).toBe(ATTACHMENT_LIMITS.MAX_BYTES);
    expect(bodyLimitFor("/api/session/start", 65536)).toBe(65536);
    expect(bodyLimitFor("/api/sessions/6f1c2a9e-0000-4000-8000-000000000001/attachments/x", 65536)).toBe(65536);
  });
});
