// StudyLoop's service worker: shows Web Push notifications (docs/notifications.md), closes them when
// they were acted on elsewhere, and opens the session a notification is about when it is tapped.
// Pushed messages: { type: "show", notice: { id, title, body, link, tag, urgency } } or { type: "withdraw", tag }.
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("push", (event) => {
  let message = null;
  try {
    message = event.data ? event.data.json() : null;
  } catch {
    message = null;
  }
  if (!message || typeof message !== "object") return;
  if (message.type === "withdraw" && typeof message.tag === "string") {
    event.waitUntil(self.registration.getNotifications({ tag: message.tag }).then((list) => list.forEach((n) => n.close())));
    return;
  }
  const notice = message.type === "show" ? message.notice : null;
  if (!notice || typeof notice.title !== "string") return;
  event.waitUntil(
    self.registration.showNotification(notice.title, {
      body: typeof notice.body === "string" ? notice.body : "",
      tag: typeof notice.tag === "string" ? notice.tag : notice.id,
      data: { link: typeof notice.link === "string" ? notice.link : "/", id: notice.id },
      requireInteraction: notice.urgency === "urgent",
      silent: notice.urgency === "calm",
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const data = event.notification.data || {};
  const target = new URL(typeof data.link === "string" ? data.link : "/", self.location.origin);
  // Only StudyLoop's own pages: a link is never sent anywhere else.
  if (target.origin !== self.location.origin) return;
  if (data.id && !target.hash) target.hash = `notice=${data.id}`;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      const open = windows.find((w) => new URL(w.url).origin === target.origin);
      if (open) {
        await open.focus();
        // The page navigates itself (an uncontrolled page cannot be navigated from here).
        open.postMessage({ type: "studyloop:open", link: target.pathname + target.search + target.hash });
        return;
      }
      await self.clients.openWindow(target.href);
    })(),
  );
});
