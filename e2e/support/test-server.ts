// One StudyLoop server for the tests of a file or describe block: started before the first, stopped
// after the last, and the live session (if any) ended after each test, so tests do not see each
// other's sessions. What `startServer` returns, usable once the block's tests run.
import { test } from "@playwright/test";
import { startServer, type StartedServer } from "./server";

export function testServer(opts: Parameters<typeof startServer>[0] = {}): StartedServer {
  let current: StartedServer | undefined;
  test.beforeAll(async () => {
    current = await startServer(opts);
  });
  test.afterAll(async () => {
    await current?.stop();
  });
  test.afterEach(async ({ request }) => {
    if (current) await request.post(`${current.url}/api/session/end`);
  });
  return new Proxy({} as StartedServer, {
    get(_, key) {
      if (!current) throw new Error("The server starts before the tests: use it inside a test or hook, not at load time.");
      return Reflect.get(current, key) as unknown;
    },
  });
}
