"use client";
// Photos (the phone's camera) and files for the next chat message: offered only when the agent
// accepts them, uploaded at once to the session folder, shown before sending, sent by name.
import { useRef } from "react";
import { attachmentUrl } from "../components/markdown";

export interface Pending {
  readonly key: string;
  readonly original: string;
  readonly state: "uploading" | "stored" | "refused";
  readonly name?: string;
  readonly kind?: "image" | "resource";
  readonly error?: string;
}

type Update = (change: (all: Pending[]) => Pending[]) => void;

let counter = 0;

async function upload(sessionId: string, file: File, update: Update): Promise<void> {
  const key = `a${++counter}`;
  update((all) => [...all, { key, original: file.name, state: "uploading" }]);
  const set = (next: Partial<Pending>) => update((all) => all.map((p) => (p.key === key ? { ...p, ...next } : p)));
  try {
    const res = await fetch(`/api/sessions/${sessionId}/attachments?name=${encodeURIComponent(file.name)}`, {
      method: "POST",
      headers: { "content-type": "application/octet-stream" },
      body: file,
    });
    const body = (await res.json().catch(() => ({}))) as { name?: string; kind?: "image" | "resource"; error?: string };
    if (res.ok && body.name) set({ state: "stored", name: body.name, kind: body.kind });
    else set({ state: "refused", error: body.error ?? `The server refused the file (HTTP ${res.status}).` });
  } catch {
    set({ state: "refused", error: "Could not reach the StudyLoop server. Is it still running?" });
  }
}

export function AttachButtons({
  sessionId,
  accepts,
  disabled,
  onChange,
}: {
  sessionId: string;
  accepts: { image: boolean; file: boolean };
  disabled: boolean;
  onChange: Update;
}) {
  const photo = useRef<HTMLInputElement>(null);
  const file = useRef<HTMLInputElement>(null);
  if (!accepts.image && !accepts.file) return null;
  const picked = (input: HTMLInputElement | null) => {
    for (const f of Array.from(input?.files ?? [])) void upload(sessionId, f, onChange);
    if (input) input.value = "";
  };
  return (
    <span className="attach-buttons">
      {accepts.image ? (
        <>
          <button
            type="button"
            onClick={() => photo.current?.click()}
            disabled={disabled}
            aria-label="Attach a photo"
            title="Attach a photo"
          >
            <CameraIcon />
          </button>
          <input
            ref={photo}
            type="file"
            accept="image/jpeg,image/png,image/gif,image/webp"
            capture="environment"
            hidden
            data-testid="attach-photo"
            onChange={(e) => picked(e.currentTarget)}
          />
        </>
      ) : null}
      <button type="button" onClick={() => file.current?.click()} disabled={disabled} aria-label="Attach a file" title="Attach a file">
        <ClipIcon />
      </button>
      <input
        ref={file}
        type="file"
        accept={[
          accepts.image ? "image/jpeg,image/png,image/gif,image/webp" : "",
          accepts.file ? ".txt,.md,.py,.js,.ts,.csv,.json,.pdf,text/plain,application/pdf" : "",
        ]
          .filter(Boolean)
          .join(",")}
        hidden
        data-testid="attach-file"
        onChange={(e) => picked(e.currentTarget)}
      />
    </span>
  );
}

export function PendingAttachments({
  pending,
  sessionId,
  onRemove,
}: {
  pending: readonly Pending[];
  sessionId: string;
  onRemove: (key: string) => void;
}) {
  if (pending.length === 0) return null;
  return (
    <ul className="pending-attachments" data-testid="pending-attachments">
      {pending.map((p) => (
        <li key={p.key} data-state={p.state}>
          {p.state === "stored" && p.kind === "image" && p.name ? <img src={attachmentUrl(sessionId, p.name)} alt={p.original} /> : null}
          <span>
            {p.state === "uploading" ? `Uploading ${p.original}…` : p.state === "refused" ? `${p.original}: ${p.error}` : p.original}
          </span>
          <button type="button" onClick={() => onRemove(p.key)} aria-label={`Remove ${p.original}`}>
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}

// Drawn here rather than as emoji: not every phone or browser has an emoji font.
function CameraIcon() {
  return (
    <svg
      viewBox="0 0 24 24"
      width="22"
      height="22"
      aria-hidden="true"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinejoin="round"
    >
      <path d="M4 8h3l2-3h6l2 3h3v11H4z" />
      <circle cx="12" cy="13" r="3.5" />
    </svg>
  );
}

function ClipIcon() {
  return (
    <svg
      viewBox="0 0 24 24"
      width="22"
      height="22"
      aria-hidden="true"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
    >
      <path d="M8 12.5l6.5-6.5a3 3 0 0 1 4.2 4.2l-8.3 8.3a5 5 0 0 1-7-7L11 4" />
    </svg>
  );
}
