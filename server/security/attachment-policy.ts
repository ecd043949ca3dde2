// How a learner's attachment is served: as data, never as a page of ours. The route sets this policy,
// and so does the gate before Next runs the route: Next keeps a header the response already has
// (send-response.js appends only absent ones), so the page policy the gate sets on every response
// would otherwise stand in its place (issue 42). docs/security.md, "Attachments".

/** No script, no plugin, no request, and a unique origin if it is ever shown as a document. */
export const ATTACHMENT_CSP = "sandbox; default-src 'none'";

/** GET /api/sessions/:id/attachments/:name (the upload route is the same path without the name). */
const ATTACHMENT_FILE_PATH = /^\/api\/sessions\/[0-9a-f-]{36}\/attachments\/[^/]+$/;

/** The policy a response on `pathname` must carry instead of the page policy, if any. */
export function ownPolicyFor(pathname: string): string | undefined {
  return ATTACHMENT_FILE_PATH.test(pathname) ? ATTACHMENT_CSP : undefined;
}
