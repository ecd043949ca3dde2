// The zod field for learner or tutor text as stored, shared by every boundary that takes such text
// (HTTP bodies, socket payloads, the CLI): the rules themselves are in safe-text.ts.
import { z } from "zod";
import { controlRefusal, forbiddenControl, neutraliseText, type TextKind } from "./safe-text.ts";

/**
 * Bidi controls removed, then trimmed, then refused with a sentence if it still holds control
 * characters. `kind` "line" allows no line breaks.
 */
export function plainText(field: string, kind: TextKind, error: string = `${field} must be text`) {
  return z
    .string({ error })
    .overwrite((s) => neutraliseText(s, kind))
    .trim()
    .refine((s) => forbiddenControl(s, kind) === undefined, controlRefusal(field, kind));
}
