// What a page tells the notifier about itself, over the socket (one schema per boundary). Browser-safe.
import { z } from "zod";

export const PagePresenceSchema = z.object({
  visible: z.boolean(),
  focused: z.boolean(),
  /** The page's path: a page on the study page (or the session's own page) already shows the session. */
  path: z.string().max(300).regex(/^\//),
  /** The browser's Notification permission here ("unsupported" outside a secure context). */
  permission: z.enum(["granted", "denied", "default", "unsupported"]),
});
export type PagePresence = z.infer<typeof PagePresenceSchema>;

export const NotifyHelloSchema = z.object({
  clientId: z.string().regex(/^[A-Za-z0-9_-]{22,64}$/),
  /** A name for the Devices page the first time this browser is seen ("Android phone (Chrome)"). */
  name: z
    .string()
    .trim()
    .min(1)
    .max(60)
    .regex(/^[^\p{Cc}]*$/u),
  origin: z
    .string()
    .max(300)
    .regex(/^https?:\/\/[^/\s]+$/),
  presence: PagePresenceSchema,
});
export type NotifyHello = z.infer<typeof NotifyHelloSchema>;

export const NotifyActSchema = z.object({ noticeId: z.string().uuid() });

/** How the page shows a notice: `alert` on one page per device, which shows the system notification. */
export interface ShowOptions {
  readonly sound: boolean;
  readonly quiet: boolean;
  readonly alert: boolean;
}
