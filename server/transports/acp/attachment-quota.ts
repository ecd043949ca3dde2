// How much the learner's attachments may take on disk: a quota per session and one over all sessions
// (issue 42: 22 photos of 10 MB went into one chat in 70 s; a phone could fill the disk). The decision
// is pure; the usage is read from the attachments folders themselves (no counter to drift), and
// uploads are taken one at a time so that two at once cannot both fit in the same room.
import fs from "node:fs";
import path from "node:path";
import { attachmentsDir } from "./attachments.ts";

export interface QuotaLimits {
  /** Bytes one session's attachments may take (STUDYLOOP_ATTACHMENTS_SESSION_MB). */
  readonly sessionBytes: number;
  /** Bytes all sessions' attachments may take together (STUDYLOOP_ATTACHMENTS_TOTAL_MB). */
  readonly totalBytes: number;
}

export interface AttachmentUsage {
  /** Bytes this session's attachments take now. */
  readonly session: number;
  /** Bytes every session's attachments take now, this one's included. */
  readonly total: number;
}

const MB = 1_000_000;

/** Megabytes from settings to bytes. */
export function quotaLimits(settings: { STUDYLOOP_ATTACHMENTS_SESSION_MB: number; STUDYLOOP_ATTACHMENTS_TOTAL_MB: number }): QuotaLimits {
  return { sessionBytes: settings.STUDYLOOP_ATTACHMENTS_SESSION_MB * MB, totalBytes: settings.STUDYLOOP_ATTACHMENTS_TOTAL_MB * MB };
}

/** Why a file of `incoming` bytes cannot be kept, in the learner's words; null when it fits. Pure. */
export function quotaRefusal(usage: AttachmentUsage, incoming: number, limits: QuotaLimits): string | null {
  if (usage.session + incoming > limits.sessionBytes) {
    return (
      `This session already keeps ${mb(usage.session)} of attachments, and ${mb(limits.sessionBytes)} is the most one session keeps: ` +
      "nothing was stored. Send the picture in a new session, or describe it in words."
    );
  }
  if (usage.total + incoming > limits.totalBytes) {
    return (
      `Your sessions already keep ${mb(usage.total)} of attachments, and ${mb(limits.totalBytes)} is the most StudyLoop keeps in all: ` +
      "nothing was stored. Remove old sessions' attachments from StudyLoop's data folder, or raise STUDYLOOP_ATTACHMENTS_TOTAL_MB."
    );
  }
  return null;
}

function mb(bytes: number): string {
  const value = bytes / MB;
  return `${value >= 10 || Number.isInteger(value) ? Math.round(value) : value.toFixed(1)} MB`;
}

/** Bytes of the plain files in a folder (not followed through links; a folder that is not there is empty). */
export function bytesIn(dir: string): number {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  let total = 0;
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    try {
      total += fs.lstatSync(path.join(dir, entry.name)).size;
    } catch {
      // removed meanwhile
    }
  }
  return total;
}

/** What this session's and every session's attachments take now, under `sessionsRoot` (<dataDir>/sessions). */
export function attachmentUsage(sessionsRoot: string, sessionId: string): AttachmentUsage {
  let total = 0;
  let session = 0;
  let names: string[];
  try {
    names = fs.readdirSync(sessionsRoot);
  } catch {
    names = [];
  }
  for (const name of names) {
    if (!/^[0-9a-f-]{36}$/.test(name)) continue;
    const bytes = bytesIn(attachmentsDir(path.join(sessionsRoot, name)));
    total += bytes;
    if (name === sessionId) session = bytes;
  }
  return { session, total };
}

let queue: Promise<unknown> = Promise.resolve();

/** Runs uploads one after another: the usage each one checks includes the file stored before it. */
export function oneUploadAtATime<T>(work: () => Promise<T> | T): Promise<T> {
  const next = queue.then(work, work);
  queue = next.catch(() => undefined);
  return next;
}
