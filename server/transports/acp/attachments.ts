// Photos and files the learner sends with a chat message: checked by their bytes (not their name or
// declared type), stored in the session folder's attachments/, and turned into ACP content blocks.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ContentBlock } from "@agentclientprotocol/sdk";

export const ATTACHMENT_LIMITS = {
  /** Largest file, in bytes: a phone photo is 2-6 MB; base64 in the prompt line adds a third. */
  MAX_BYTES: 10 * 1024 * 1024,
  /** Files per message. */
  MAX_PER_MESSAGE: 4,
} as const;

export const ATTACHMENTS_DIR = "attachments";
/** The upload route: the one path whose body may pass the gate's 64 KB JSON limit (up to MAX_BYTES). */
export const UPLOAD_PATH = /^\/api\/sessions\/[0-9a-f-]{36}\/attachments$/;

/** The largest body the gate lets through to this path. */
export function bodyLimitFor(pathname: string, jsonLimit: number): number {
  return UPLOAD_PATH.test(pathname) ? ATTACHMENT_LIMITS.MAX_BYTES : jsonLimit;
}
/** Stored names: what the upload writes, the only names a prompt or the file route accepts. */
export const STORED_NAME = /^[a-z0-9][a-z0-9._-]{0,120}$/;

export type AttachmentKind = "image" | "resource";

export interface DetectedType {
  readonly mimeType: string;
  readonly ext: string;
  readonly kind: AttachmentKind;
}

/** What the agent accepts in a prompt, from its initialize answer. */
export interface PromptSupport {
  readonly image: boolean;
  readonly embeddedContext: boolean;
}

export interface StoredAttachment {
  readonly name: string;
  readonly mimeType: string;
  readonly size: number;
  readonly kind: AttachmentKind;
}

/** The file's real type from its first bytes; text is UTF-8 with no NUL. Null: not a type we send. */
export function detectType(bytes: Uint8Array): DetectedType | null {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(0xff, 0xd8, 0xff)) return { mimeType: "image/jpeg", ext: "jpg", kind: "image" };
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return { mimeType: "image/png", ext: "png", kind: "image" };
  if (starts(0x47, 0x49, 0x46, 0x38)) return { mimeType: "image/gif", ext: "gif", kind: "image" };
  if (starts(0x52, 0x49, 0x46, 0x46) && bytes[8] === 0x57 && bytes[9] === 0x45 && bytes[10] === 0x42 && bytes[11] === 0x50) {
    return { mimeType: "image/webp", ext: "webp", kind: "image" };
  }
  if (starts(0x25, 0x50, 0x44, 0x46, 0x2d)) return { mimeType: "application/pdf", ext: "pdf", kind: "resource" };
  if (bytes.length > 0 && !bytes.includes(0)) {
    try {
      new TextDecoder("utf-8", { fatal: true }).decode(bytes);
      return { mimeType: "text/plain", ext: "txt", kind: "resource" };
    } catch {
      return null;
    }
  }
  return null;
}

/** Why this file cannot go to this agent, in the learner's words; null when it can. */
export function refusal(size: number, type: DetectedType | null, support: PromptSupport): string | null {
  if (size === 0) return "The file is empty.";
  if (size > ATTACHMENT_LIMITS.MAX_BYTES) return `The file is too large: ${ATTACHMENT_LIMITS.MAX_BYTES / 1024 / 1024} MB at most.`;
  if (!type) return "Only photos (JPEG, PNG, GIF, WebP), PDF and plain-text files can be attached.";
  if (type.kind === "image" && !support.image) return "This tutor does not accept images: describe it in words instead.";
  if (type.kind === "resource" && !support.embeddedContext)
    return "This tutor does not accept files: paste the text into your message instead.";
  return null;
}

/** A stored name: a counter, the learner's name made safe, the detected extension. */
export function storedName(index: number, original: string, ext: string): string {
  const base = path
    .basename(original)
    .replace(/\.[^.]*$/, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60);
  return `${index}-${base || "file"}.${ext}`;
}

export function attachmentsDir(sessionDir: string): string {
  return path.join(sessionDir, ATTACHMENTS_DIR);
}

/** Writes a checked file into the session folder; never overwrites one. */
export function storeAttachment(sessionDir: string, original: string, bytes: Uint8Array, type: DetectedType): StoredAttachment {
  const dir = attachmentsDir(sessionDir);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const index = fs.readdirSync(dir).length + 1;
  for (let n = index; n < index + 1000; n++) {
    const name = storedName(n, original, type.ext);
    try {
      fs.writeFileSync(path.join(dir, name), bytes, { flag: "wx", mode: 0o600 });
      return { name, mimeType: type.mimeType, size: bytes.length, kind: type.kind };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
  throw new Error(`Could not find a free name in ${dir}`);
}

/** A stored attachment read back (type checked again from its bytes), or null when there is none. */
export function readAttachment(sessionDir: string, name: string): { stored: StoredAttachment; bytes: Buffer; file: string } | null {
  if (!STORED_NAME.test(name)) return null;
  const file = path.join(attachmentsDir(sessionDir), name);
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch {
    return null;
  }
  const type = detectType(bytes);
  if (!type) return null;
  return { stored: { name, mimeType: type.mimeType, size: bytes.length, kind: type.kind }, bytes, file };
}

/** The ACP content block for one attachment: an image, or an embedded resource (text or blob). */
export function contentBlock(stored: StoredAttachment, bytes: Buffer, file: string): ContentBlock {
  const uri = pathToFileURL(file).href;
  if (stored.kind === "image") return { type: "image", mimeType: stored.mimeType, data: bytes.toString("base64"), uri };
  if (stored.mimeType.startsWith("text/"))
    return { type: "resource", resource: { uri, mimeType: stored.mimeType, text: bytes.toString("utf8") } };
  return { type: "resource", resource: { uri, mimeType: stored.mimeType, blob: bytes.toString("base64") } };
}
