// The routes the tutor's session token may call: the one table. The token lives in the agent's
// environment, so whatever it opens, the agent's shell (and anything the agent runs) can use. It opens
// exactly what the tutor's own commands need and nothing else: on loopback and --lan alike, a request
// carrying it anywhere else is refused (server/security/http-gate.ts), and e2e/tutor-token.spec.ts
// tries every route under app/api with it. A new tutor command adds its row here.

export interface TutorRoute {
  readonly method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  /** The path, segments starting with ":" match any one segment (e.g. "/api/cards/:id"). */
  readonly path: string;
  /** The command that calls it, for the refusal's sentence and the docs. */
  readonly command: string;
}

export const TUTOR_ROUTES: readonly TutorRoute[] = [
  { method: "POST", path: "/api/parking", command: "studyloop park" },
  { method: "POST", path: "/api/session/topics", command: "studyloop topic" },
  { method: "POST", path: "/api/cards", command: "studyloop card" },
  { method: "GET", path: "/api/cards", command: "studyloop cards" },
  { method: "POST", path: "/api/session/recall", command: "studyloop recall" },
];

/** Whether the tutor's token may call `method` on `pathname` (the path only, no query). */
export function tutorMayCall(method: string, pathname: string, routes: readonly TutorRoute[] = TUTOR_ROUTES): boolean {
  const upper = method.toUpperCase();
  const segments = pathname.split("/");
  return routes.some((route) => {
    if (route.method !== upper) return false;
    const pattern = route.path.split("/");
    return pattern.length === segments.length && pattern.every((p, i) => (p.startsWith(":") ? segments[i] !== "" : p === segments[i]));
  });
}

/** The refusal for the token outside its routes: what it is for, and what to use instead. */
export function tutorTokenRefusal(routes: readonly TutorRoute[] = TUTOR_ROUTES): string {
  const commands = [...new Set(routes.map((r) => r.command))].join(", ");
  return `The tutor's session token is only for the tutor's own commands (${commands}): this request needs the learner's browser or a paired device.`;
}
