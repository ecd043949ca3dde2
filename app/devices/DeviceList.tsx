"use client";
// The paired devices with their last use and when an unused one lapses; revoking one (or all at
// once) disconnects it at once.
import { useState } from "react";
import "../components/devices.css";
import type { DeviceView } from "@/server/security/access-control";
import { ErrorAlert } from "../components/ErrorAlert";
import { callApi } from "../components/api-client";

export function DeviceList({ initial, current }: { initial: DeviceView[]; current: string | null }) {
  const [devices, setDevices] = useState(initial);
  const [confirming, setConfirming] = useState<DeviceView | "all" | null>(null);
  const [error, setError] = useState<string | null>(null);

  const revoke = async (device: DeviceView) => {
    setConfirming(null);
    setError(null);
    const refused = (status: number) => `Could not revoke ${device.name} (HTTP ${status}).`;
    const answer = await callApi<{ device?: DeviceView }>(`/api/devices/${device.id}/revoke`, { method: "POST", refused });
    if (!answer.ok) return setError(answer.error);
    const revoked = answer.value.device;
    if (!revoked) return setError(refused(answer.status));
    // Revoking this very device: its next request is refused, so show that now.
    if (device.id === current) return window.location.reload();
    setDevices((list) => list.map((d) => (d.id === device.id ? revoked : d)));
  };

  const revokeAll = async () => {
    setConfirming(null);
    setError(null);
    const keepThisDevice = current !== null && devices.some((d) => d.id === current && !d.revokedAt);
    const answer = await callApi("/api/devices/revoke-all", {
      body: { keepThisDevice },
      refused: (status) => `Could not revoke the devices (HTTP ${status}).`,
    });
    if (!answer.ok) return setError(answer.error);
    const now = new Date().toISOString();
    setDevices((list) =>
      list.map((d) =>
        d.revokedAt || (keepThisDevice && d.id === current) ? d : { ...d, revokedAt: now, expiresAt: null, expired: false },
      ),
    );
  };

  if (devices.length === 0) return <p className="panel muted">No device has been paired yet.</p>;
  const others = devices.filter((d) => !d.revokedAt && d.id !== current).length;
  return (
    <>
      <ul className="device-list" aria-label="Paired devices">
        {devices.map((d) => (
          <li key={d.id} className="panel" data-testid="device" data-revoked={d.revokedAt ? "true" : undefined}>
            <div className="device-name">
              <strong>{d.name}</strong>
              {d.id === current ? <span className="badge live">this device</span> : null}
              {d.revokedAt ? <span className="badge">revoked</span> : null}
            </div>
            <div className="muted" data-testid="device-use">
              Paired {when(d.createdAt)} · last used {d.lastSeenAt ? when(d.lastSeenAt) : "never"}
              {d.revokedAt ? ` · revoked ${when(d.revokedAt)}` : ""}
              {d.expired ? " · expired: unused too long" : d.expiresAt ? ` · expires ${when(d.expiresAt)} unless used` : ""}
            </div>
            {d.revokedAt ? null : (
              <div>
                <button className="danger" onClick={() => setConfirming(d)}>
                  Revoke
                </button>
              </div>
            )}
          </li>
        ))}
      </ul>
      {others > 0 ? (
        <div>
          <button className="danger" onClick={() => setConfirming("all")}>
            {current ? "Revoke all other devices" : "Revoke all devices"}
          </button>
        </div>
      ) : null}
      <ErrorAlert error={error} />
      {confirming === "all" ? (
        <dialog open aria-labelledby="revoke-title">
          <h2 id="revoke-title">
            {others === 1
              ? current
                ? "Revoke the other device?"
                : "Revoke the paired device?"
              : current
                ? `Revoke all ${others} other devices?`
                : `Revoke all ${others} devices?`}
          </h2>
          <p>They are disconnected at once and each needs a new pairing link to come back.</p>
          <div className="row">
            <button onClick={() => setConfirming(null)}>Keep them</button>
            <button className="danger" onClick={() => void revokeAll()}>
              Revoke all
            </button>
          </div>
        </dialog>
      ) : confirming ? (
        <dialog open aria-labelledby="revoke-title">
          <h2 id="revoke-title">Revoke {confirming.name}?</h2>
          <p>
            {confirming.id === current
              ? "This is the device you are using: it is disconnected at once and needs a new pairing link to come back."
              : "It is disconnected at once and needs a new pairing link to come back."}
          </p>
          <div className="row">
            <button onClick={() => setConfirming(null)}>Keep it</button>
            <button className="danger" onClick={() => void revoke(confirming)}>
              Revoke
            </button>
          </div>
        </dialog>
      ) : null}
    </>
  );
}

function when(iso: string): string {
  return new Date(iso).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" });
}
