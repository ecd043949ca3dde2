"use client";
// The Devices page's notification section: how this browser is notified (system notifications,
// Web Push, an ntfy topic, sound), a test button, and every browser that gets notifications.
import { useEffect, useState, useSyncExternalStore } from "react";
import "../components/notify.css";
import type { NotifyDeviceView } from "@/server/notify/device-store";
import { ErrorAlert } from "../components/ErrorAlert";
import { callApi } from "../components/api-client";
import { notifyClientId, serviceWorker, systemPermission, vapidKeyBytes } from "../components/notify-client";

type Settings = Partial<{ system: boolean; sound: boolean; push: PushSubscriptionJSON | null; ntfyUrl: string | null }>;

export function NotificationSettings() {
  // Browser-only facts, read after hydration (the server renders without them).
  const me = useSyncExternalStore(noSubscription, notifyClientId, () => null);
  const secure = useSyncExternalStore(
    noSubscription,
    () => window.isSecureContext,
    () => true,
  );
  const [devices, setDevices] = useState<NotifyDeviceView[] | null>(null);
  const [ntfy, setNtfy] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);

  useEffect(() => {
    const id = notifyClientId();
    let cancelled = false;
    // The page's own hello (NotificationCenter) creates this browser's row: read again until it is there.
    const read = async (attempt: number) => {
      const answer = await callApi<{ devices: NotifyDeviceView[] }>("/api/notify/devices", { cache: "no-store" });
      if (!answer.ok) return setError("Could not read the notification settings. Is the StudyLoop server still running?");
      if (cancelled) return;
      const list = answer.value.devices;
      setDevices(list);
      const mine = list.find((d) => d.id === id);
      if (mine) setNtfy(mine.ntfyUrl ?? "");
      else if (attempt < 10) setTimeout(() => void read(attempt + 1), 300);
    };
    void read(0);
    return () => {
      cancelled = true;
    };
  }, []);

  const save = async (settings: Settings, done: string) => {
    setError(null);
    setStatus(null);
    if (!me) return;
    const refused = (status: number) => `Could not save (HTTP ${status}).`;
    const answer = await callApi<{ device?: NotifyDeviceView }>(`/api/notify/devices/${me}`, { method: "PUT", body: settings, refused });
    if (!answer.ok) return setError(answer.error);
    const saved = answer.value.device;
    if (!saved) return setError(refused(answer.status));
    setDevices((list) => (list ?? []).map((d) => (d.id === me ? saved : d)));
    setStatus(done);
  };

  const enableSystem = async () => {
    if (systemPermission() === "unsupported")
      return setError("System notifications need HTTPS (start StudyLoop with --tls-cert) or this computer's own browser.");
    const permission = await Notification.requestPermission();
    if (permission !== "granted")
      return setError("The browser did not allow notifications: allow them for this site in its settings, then try again.");
    await save({ system: true }, "System notifications are on for this browser.");
  };

  const enablePush = async () => {
    const registration = await serviceWorker();
    if (!registration || !("pushManager" in registration))
      return setError(
        "Web Push needs HTTPS (start StudyLoop with --tls-cert) or this computer's own browser, and a browser that supports it.",
      );
    const answer = await callApi<{ publicKey?: string }>("/api/notify/vapid", { cache: "no-store" });
    const key = answer.ok ? answer.value.publicKey : null;
    if (!key) return setError("Could not read the server's push key. Reload and try again.");
    try {
      const subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: vapidKeyBytes(key) });
      await save({ push: subscription.toJSON() }, "Push notifications are on for this browser.");
    } catch (e) {
      setError(
        `The browser could not subscribe to push notifications (${e instanceof Error ? e.message : String(e)}). Allow notifications for this site and try again.`,
      );
    }
  };

  const disablePush = async () => {
    const registration = await serviceWorker();
    await (await registration?.pushManager.getSubscription())?.unsubscribe().catch(() => undefined);
    await save({ push: null }, "Push notifications are off for this browser.");
  };

  const test = async (device: string) => {
    setError(null);
    setStatus(null);
    const answer = await callApi<{ sent?: string[] }>("/api/notify/test", {
      body: { device },
      refused: (status) => `Could not send the test (HTTP ${status}).`,
    });
    if (!answer.ok) return setError(answer.error);
    setStatus(`Test sent through: ${(answer.value.sent ?? []).map(channelName).join(", ")}.`);
  };

  const forget = async (device: string) => {
    const answer = await callApi(`/api/notify/devices/${device}`, { method: "DELETE" });
    if (!answer.ok) return setError("Could not forget that browser. Reload and try again.");
    setDevices((list) => (list ?? []).filter((d) => d.id !== device));
  };

  const mine = devices?.find((d) => d.id === me);
  return (
    <section className="panel stack" aria-labelledby="notify-title" data-testid="notification-settings">
      <h2 id="notify-title" className="flush">
        Notifications
      </h2>
      <p className="muted">
        StudyLoop tells you when the tutor needs you, when a break is due and when a session ends without you. Nothing is sent while you are
        looking at StudyLoop. Each device chooses how it is told.
      </p>
      {!secure ? (
        <p className="notice panel warn">
          This page is not served over HTTPS, so the browser offers no system or push notifications here. Start StudyLoop with --tls-cert,
          or use an ntfy topic below.
        </p>
      ) : null}
      {mine ? (
        <div className="stack" data-testid="this-device-notify">
          <strong>This browser: {mine.name}</strong>
          <div className="row">
            {mine.system ? (
              <button onClick={() => void save({ system: false }, "System notifications are off for this browser.")}>
                Turn off system notifications
              </button>
            ) : (
              <button onClick={() => void enableSystem()}>Turn on system notifications</button>
            )}
            {mine.push ? (
              <button onClick={() => void disablePush()}>Turn off push</button>
            ) : (
              <button onClick={() => void enablePush()}>Turn on push (locked screen)</button>
            )}
            <label className="row">
              <input
                type="checkbox"
                checked={mine.sound}
                onChange={(e) => void save({ sound: e.target.checked }, e.target.checked ? "Sound is on." : "Sound is off.")}
              />{" "}
              Sound
            </label>
          </div>
          <form
            className="row"
            onSubmit={(e) => {
              e.preventDefault();
              void save({ ntfyUrl: ntfy.trim() || null }, ntfy.trim() ? "ntfy topic saved." : "ntfy topic removed.");
            }}
          >
            <label htmlFor="ntfy-url">ntfy topic URL</label>
            <input
              id="ntfy-url"
              type="text"
              inputMode="url"
              placeholder="https://ntfy.sh/a-long-secret-topic"
              value={ntfy}
              onChange={(e) => setNtfy(e.target.value)}
            />
            <button type="submit">Save topic</button>
          </form>
          <div>
            <button className="primary" onClick={() => void test(mine.id)}>
              Send a test notification
            </button>
          </div>
        </div>
      ) : (
        <p className="muted">Setting up this browser…</p>
      )}
      {status ? (
        <p role="status" className="muted">
          {status}
        </p>
      ) : null}
      <ErrorAlert error={error} />
      {devices && devices.length > 1 ? (
        <ul className="device-list" aria-label="Browsers that get notifications">
          {devices
            .filter((d) => d.id !== me)
            .map((d) => (
              <li key={d.id} className="panel" data-testid="notify-device">
                <strong>{d.name}</strong>
                <span className="muted">
                  {channels(d)} · last looked{" "}
                  {d.lastSeenAt ? new Date(d.lastSeenAt).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" }) : "never"}
                </span>
                <div className="row">
                  <button onClick={() => void test(d.id)}>Send a test notification</button>
                  <button className="danger" onClick={() => void forget(d.id)}>
                    Forget
                  </button>
                </div>
              </li>
            ))}
        </ul>
      ) : null}
    </section>
  );
}

const noSubscription = () => () => undefined;

function channels(d: NotifyDeviceView): string {
  const list = ["in the page", ...(d.system ? ["system"] : []), ...(d.push ? ["push"] : []), ...(d.ntfyUrl ? ["ntfy"] : [])];
  return list.join(", ");
}

function channelName(channel: string): string {
  return channel === "page" ? "this page" : channel === "system" ? "system notification" : channel;
}
