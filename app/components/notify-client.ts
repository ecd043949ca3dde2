"use client";
// This browser's side of notifications: its own id (kept in localStorage), what it reports about
// itself, the service worker, showing a system notification, and a short sound. Browser-only.
import type { PagePresence } from "@/server/notify/presence";
import { guessDeviceName } from "@/common/device-name";
import type { NoticePayload } from "@/server/notify/kinds";

const ID_KEY = "studyloop.notify.id";
export const SERVICE_WORKER_URL = "/sw.js";

/** This browser's notification id: random, made once (crypto.getRandomValues works on plain http too). */
export function notifyClientId(): string {
  let id = window.localStorage.getItem(ID_KEY);
  if (!id || !/^[A-Za-z0-9_-]{22,64}$/.test(id)) {
    const bytes = crypto.getRandomValues(new Uint8Array(18));
    id = btoa(String.fromCharCode(...bytes))
      .replace(/\+/g, "-")
      .replace(/\//g, "_")
      .replace(/=+$/, "");
    window.localStorage.setItem(ID_KEY, id);
  }
  return id;
}

/** A name for the Devices page the first time this browser is seen. */
export function guessBrowserName(): string {
  return guessDeviceName(navigator.userAgent);
}

export function systemPermission(): PagePresence["permission"] {
  if (!window.isSecureContext || typeof Notification === "undefined") return "unsupported";
  return Notification.permission;
}

export function currentPresence(): PagePresence {
  return {
    visible: document.visibilityState === "visible",
    focused: document.hasFocus(),
    path: window.location.pathname,
    permission: systemPermission(),
  };
}

/** Registers the service worker where the browser allows one (a secure context); null elsewhere. */
export async function serviceWorker(): Promise<ServiceWorkerRegistration | null> {
  if (!window.isSecureContext || !("serviceWorker" in navigator)) return null;
  try {
    await navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: "/" });
    return await navigator.serviceWorker.ready;
  } catch {
    return null;
  }
}

/** Shows a system notification: through the service worker when there is one (Android needs it). */
export async function showSystemNotification(notice: NoticePayload): Promise<void> {
  const options: NotificationOptions = {
    body: notice.body,
    tag: notice.tag,
    data: { link: notice.link, id: notice.id },
    requireInteraction: notice.urgency === "urgent",
    silent: notice.urgency === "calm",
  };
  const registration = await serviceWorker();
  if (registration) return registration.showNotification(notice.title, options);
  const shown = new Notification(notice.title, options);
  shown.onclick = () => {
    window.focus();
    window.location.assign(notice.link);
  };
  opened.set(notice.tag, shown);
}

const opened = new Map<string, Notification>();

/** Closes what this page (or its service worker) showed under a tag. */
export async function closeSystemNotification(tag: string): Promise<void> {
  opened.get(tag)?.close();
  opened.delete(tag);
  const registration = window.isSecureContext && "serviceWorker" in navigator ? await navigator.serviceWorker.getRegistration() : undefined;
  for (const n of (await registration?.getNotifications({ tag })) ?? []) n.close();
}

let audio: AudioContext | undefined;

/** A short chime made on the spot (no sound file to fetch): two notes when it is urgent. */
export function chime(urgent: boolean): void {
  try {
    audio ??= new AudioContext();
    void audio.resume().catch(() => undefined);
    const notes = urgent ? [880, 660] : [660];
    notes.forEach((frequency, i) => {
      const start = audio!.currentTime + i * 0.18;
      const osc = audio!.createOscillator();
      const gain = audio!.createGain();
      osc.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, start);
      gain.gain.exponentialRampToValueAtTime(0.2, start + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.16);
      osc.connect(gain).connect(audio!.destination);
      osc.start(start);
      osc.stop(start + 0.17);
    });
  } catch {
    // No audio here (a browser policy, no device): the overlay and the title still tell.
  }
}

/** The base64url public key as the bytes PushManager.subscribe wants. */
export function vapidKeyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const padded = base64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (base64url.length % 4)) % 4);
  const raw = atob(padded);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}
