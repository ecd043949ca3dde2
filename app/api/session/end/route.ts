import { getRuntime } from "@/server/runtime";
import { handle, json } from "@/server/api/route-helpers";

export const dynamic = "force-dynamic";

export function POST() {
  return handle(async () => {
    const { session, endingOn } = await getRuntime().sessions.end("ended-by-learner");
    if (!endingOn) return json({ session });
    // Another StudyLoop server runs it: asked, not yet done (it ends it within a heartbeat).
    const where = endingOn.host ?? "another machine";
    return json({ session, endingOn, message: `Ending it on ${where}: the server there stops the tutor within a few seconds.` }, 202);
  });
}
