"use client";
// Photos (the phone's camera) and files for the next chat message: offered only when the agent
// accepts them, uploaded at once to the session folder, shown before sending, sent by name.
import { useRef, type ReactNode } from "react";
import { attachmentUrl } from "../components/markdown";
import { callApi } from "../components/api-client";

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
  const refused = (status: number) => `The server refused the file (HTTP ${status}).`;
  const url = `/api/sessions/${sessionId}/attachments?name=${encodeURIComponent(file.name)}`;
  const answer = await callApi<{ name?: string; kind?: "image" | "resource" }>(url, { file, refused });
  if (!answer.ok) set({ state: "refused", error: answer.error });
  else if (answer.value.name) set({ state: "stored", name: answer.value.name, kind: answer.value.kind });
  else set({ state: "refused", error: refused(answer.status) });
}

const IMAGE_TYPES = "image/jpeg,image/png,image/gif,image/webp";
const FILE_TYPES = ".txt,.md,.py,.js,.ts,.csv,.json,.pdf,text/plain,application/pdf";

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
  if (!accepts.image && !accepts.file) return null;
  const uploadAll = (files: readonly File[]) => {
    for (const f of files) void upload(sessionId, f, onChange);
  };
  return (
    <span className="attach-buttons">
      {accepts.image ? (
        <AttachPicker
          label="Attach a photo"
          icon={<CameraIcon />}
          accept={IMAGE_TYPES}
          camera
          testId="attach-photo"
          disabled={disabled}
          onFiles={uploadAll}
        />
      ) : null}
      <AttachPicker
        label="Attach a file"
        icon={<ClipIcon />}
        accept={[accepts.image ? IMAGE_TYPES : "", accepts.file ? FILE_TYPES : ""].filter(Boolean).join(",")}
        testId="attach-file"
        disabled={disabled}
        onFiles={uploadAll}
      />
    </span>
  );
}

/** A button that opens the system's file picker (the camera first, with `camera`), and the hidden input behind it. */
function AttachPicker({
  label,
  icon,
  accept,
  camera = false,
  testId,
  disabled,
  onFiles,
}: {
  label: string;
  icon: ReactNode;
  accept: string;
  camera?: boolean;
  testId: string;
  disabled: boolean;
  onFiles: (files: readonly File[]) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button type="button" onClick={() => input.current?.click()} disabled={disabled} aria-label={label} title={label}>
        {icon}
      </button>
      <input
        ref={input}
        type="file"
        accept={accept}
        capture={camera ? "environment" : undefined}
        hidden
        data-testid={testId}
        onChange={(e) => {
          const picked = e.currentTarget;
          onFiles(Array.from(picked.files ?? []));
          // Cleared so that picking the same file again uploads it again.
          picked.value = "";
        }}
      />
    </>
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
function LineIcon({ children }: { children: ReactNode }) {
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
      strokeLinejoin="round"
    >
      {children}
    </svg>
  );
}

const CameraIcon = () => (
  <LineIcon>
    <path d="M4 8h3l2-3h6l2 3h3v11H4z" />
    <circle cx="12" cy="13" r="3.5" />
  </LineIcon>
);

const ClipIcon = () => (
  <LineIcon>
    <path d="M8 12.5l6.5-6.5a3 3 0 0 1 4.2 4.2l-8.3 8.3a5 5 0 0 1-7-7L11 4" />
  </LineIcon>
);
