// The start form's choices remembered between sessions on this device (localStorage): the focus
// plan, the tutor agent and how it is shown (a terminal or a chat). Read leniently: anything unreadable is as if nothing was remembered.
import { z } from "zod";
import { FOCUS_PLAN_KINDS } from "@/common/study/focus-plan";

export const REMEMBERED_KEY = "studyloop.start-choices";

const RememberedSchema = z.object({
  focusPlan: z.enum(FOCUS_PLAN_KINDS).optional(),
  agent: z.string().max(100).optional(),
  transport: z.enum(["pty", "acp"]).optional(),
});
export type Remembered = z.infer<typeof RememberedSchema>;

export function parseRemembered(text: string | null): Remembered {
  if (!text) return {};
  try {
    const parsed = RememberedSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

export function loadRemembered(): Remembered {
  try {
    return parseRemembered(window.localStorage.getItem(REMEMBERED_KEY));
  } catch {
    return {}; // storage disabled (private mode): nothing remembered, nothing broken
  }
}

export function saveRemembered(choices: Remembered): void {
  try {
    window.localStorage.setItem(REMEMBERED_KEY, JSON.stringify(choices));
  } catch {
    // Storage full or disabled: the choice simply is not remembered.
  }
}
