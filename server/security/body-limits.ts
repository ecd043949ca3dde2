// How large a request body may be: checked by the gate from the declared length before any of it is
// read, and again by the route helpers on the body itself.

/** JSON bodies over this are refused (64 KB: far more than any form here sends). */
export const MAX_JSON_BODY_BYTES = 64 * 1024;
