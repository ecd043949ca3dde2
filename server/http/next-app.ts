// The Next.js app the custom server hands requests to. In production it starts from the config the
// build serialized (.next/required-server-files.json), as Next's own standalone server does: reading
// next.config.ts at run time would transpile it, loading Next's native compiler (SWC) into the server
// for good, ~0.1 s of start-up and tens of MB of memory that serving never uses.
import fs from "node:fs";
import path from "node:path";
import next from "next";

/** Next reads this variable (its standalone mode) instead of loading next.config.* and its defaults. */
const STANDALONE_CONFIG = "__NEXT_PRIVATE_STANDALONE_CONFIG";

/** The config `next build` wrote, or undefined when there is none to read (no build yet: Next says so itself). */
export function builtConfig(projectRoot: string): unknown {
  try {
    const file = path.join(projectRoot, ".next", "required-server-files.json");
    return (JSON.parse(fs.readFileSync(file, "utf8")) as { config?: unknown }).config;
  } catch {
    return undefined;
  }
}

/** The pages could not be started (a missing or partial build): not the database's fault, whatever the error's code. */
export class PagesStartError extends Error {
  override readonly name = "PagesStartError";
  constructor(cause: unknown, dev: boolean) {
    const why = cause instanceof Error ? cause.message : String(cause);
    super(
      dev
        ? `The pages could not be started in development mode (${why}).`
        : `The pages could not be started: their build is missing or incomplete (${why}). Run \`npm run build\`, then start StudyLoop again.`,
      { cause },
    );
  }
}

export async function prepareNext(options: { dev: boolean; dir: string; hostname: string; port: number }) {
  const config = options.dev ? undefined : builtConfig(options.dir);
  if (config) process.env[STANDALONE_CONFIG] = JSON.stringify(config);
  try {
    const app = next({ dev: options.dev, dir: options.dir, hostname: options.hostname, port: options.port, turbopack: true });
    await app.prepare();
    return app;
  } catch (error) {
    throw new PagesStartError(error, options.dev);
  } finally {
    // Read once, while preparing; not for the agents this server starts (agent-env.ts drops it anyway).
    delete process.env[STANDALONE_CONFIG];
  }
}

/**
 * Renders the pages a learner opens first, once, in the background right after start-up: the first
 * render of a page after start loads and compiles its server code, runs its first queries and fills
 * Next's caches (measured: seconds cold against tens of ms after), and that should not be the learner's
 * wait. Only when this machine's own requests need no pairing (served to loopback only); anything that
 * fails is left to the learner's first request, as before.
 */
export function warmPages(url: string, paths: readonly string[] = ["/study", "/"]): Promise<void> {
  return paths.reduce<Promise<void>>(
    (previous, page) =>
      previous.then(() =>
        fetch(new URL(page, url)).then(
          (res) => res.arrayBuffer().then(() => undefined),
          () => undefined,
        ),
      ),
    Promise.resolve(),
  );
}
