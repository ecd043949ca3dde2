// fast-check generators of hostile input, shared by the schema property tests (vitest) and the
// real-server fuzz spec (Playwright).
import fc from "fast-check";

/** Strings rich in what hostile input holds: controls, escapes, bidi, lone surrogates, quotes, long runs. */
export const hostileString = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 50 }),
  fc.string({ unit: "binary", maxLength: 50 }),
  fc.constantFrom(
    "",
    " ",
    "\u0000",
    "a\u0000b\nc",
    "\u001b]52;c;aGk=\u0007",
    "\u001b[2J\u001bc",
    "rtl\u202Egnp.exe",
    "\u2066x\u2069",
    "\u009b31m",
    "'; DROP TABLE study_sessions; --",
    "<script>alert(1)</script>",
    "../../etc/passwd",
    "%_\\",
    "\uD800",
    "x".repeat(5000),
  ),
);

/** Any JSON-ish value, and objects shaped like a real body (its keys) with hostile values. */
export const anyBody = (keys: readonly string[]) =>
  fc.oneof(
    fc.anything(),
    fc.dictionary(
      fc.constantFrom(...keys, "__proto__", "constructor", "extra"),
      fc.oneof(hostileString, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.anything()),
    ),
  );
