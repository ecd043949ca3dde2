// Builds the notification pipeline for the custom server: the device store, the Web Push keys (made
// on first start), the notifier and its sources (the review reminder among them); revoking a paired device removes its subscriptions.
import type { Db } from "../db/client.ts";
import type { Settings } from "../config/settings.ts";
import type { SessionService } from "../sessions/session-service.ts";
import type { SessionEvents } from "../sessions/session-events.ts";
import type { AccessControl } from "../security/access-control.ts";
import { NotifyDeviceStore } from "./device-store.ts";
import { Notifier } from "./notifier.ts";
import { connectSources } from "./sources.ts";
import { startReviewReminder } from "./review-reminder.ts";
import { WebPushChannel, loadVapidKeys } from "./web-push-channel.ts";
import { readNotifyConfig } from "./notify-config.ts";
import { clickOrigin, ownOrigins } from "./click-origin.ts";

export interface Notifications {
  readonly notifier: Notifier;
  close(): void;
}

export function createNotifications(deps: {
  db: Db;
  sessions: SessionService;
  events: SessionEvents;
  access: AccessControl;
  dataDir: string;
  settings: Settings;
  log: (line: string) => void;
  /** Review cards due now (the review loop's CardStore.dueCount): a calm reminder once a day. */
  reviewDueCount?: () => Promise<number>;
}): Notifications {
  const store = new NotifyDeviceStore(deps.db);
  // Read at each send: an edit to studyloop.config.json applies without a restart.
  const allowHosts = () => readNotifyConfig(deps.dataDir).allowHosts;
  const notifier = new Notifier({
    db: deps.db,
    store,
    push: new WebPushChannel(loadVapidKeys(deps.dataDir), allowHosts),
    allowHosts,
    clickOrigin: (claimed) =>
      clickOrigin(
        claimed,
        ownOrigins({
          baseUrls: deps.access.baseUrls(true).map((b) => b.baseUrl),
          allowOrigins: deps.access.policy.allowOrigins,
          lan: deps.access.requirePairing,
        }),
      ),
    log: deps.log,
    awayMs: deps.settings.STUDYLOOP_AWAY_DIGEST_SECONDS * 1000,
  });
  const sources = connectSources({
    db: deps.db,
    sessions: deps.sessions,
    events: deps.events,
    notifier,
    dataDir: deps.dataDir,
    log: deps.log,
  });
  const reviews = deps.reviewDueCount ? startReviewReminder({ db: deps.db, notifier, dueCount: deps.reviewDueCount, log: deps.log }) : null;
  const onRevoked = (deviceId: string) =>
    void store
      .removeForDevice(deviceId)
      .catch((error: unknown) => deps.log(`Could not remove a revoked device's notification settings: ${String(error)}`));
  deps.access.on("revoked", onRevoked);
  return {
    notifier,
    close: () => {
      sources.close();
      reviews?.close();
      deps.access.off("revoked", onRevoked);
    },
  };
}
