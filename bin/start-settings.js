// Settings the server needs from the moment its process starts, which no code can change later: glibc
// reads MALLOC_ARENA_MAX once, before Node runs. glibc gives each thread that allocates its own arena
// (up to 8 per core: V8's platform threads, libuv's pool, each terminal's mirror worker) and returns
// little of them; two arenas keep a live server ~8-20 MiB smaller at no measured CPU cost
// (docs/performance.md, "Round 7: memory"). bin/studyloop.js's first line sets it:
//
//   #!/usr/bin/env -S sh -c '[ "${MALLOC_ARENA_MAX+1}" ]||export MALLOC_ARENA_MAX=2 STUDYLOOP_ARENAS=2;exec node "$0" "$@"'
//
// whenever `studyloop` runs as a command: npm's bin link or `npm link`, `npm run web` / `npm run dev`
// (package.json runs ./bin/studyloop.js), ./bin/studyloop.js. env and sh each replace themselves with
// the next program (exec), so the PID a learner or a test holds is the server's own. A learner's own
// MALLOC_ARENA_MAX (even an empty one) is kept as it is. `node bin/studyloop.js` runs without it.
// The line stays under 128 bytes, the longest interpreter line Linux read before 5.1.
import process from "node:process";

/** glibc's arena limit when the learner set none. */
export const DEFAULT_ARENA_MAX = "2";
/** Set beside MALLOC_ARENA_MAX when the first line supplied it (not the learner): it is then ours to take back. */
export const ARENAS_MARK = "STUDYLOOP_ARENAS";

/**
 * Takes what the first line added back out of this process's environment, so the programs the server
 * starts (the agent, `next build`, tmux) get the learner's environment as it was. glibc has read it.
 */
export function forgetStartSettings(env = process.env) {
  if (env[ARENAS_MARK] === undefined) return;
  if (env[ARENAS_MARK] === env.MALLOC_ARENA_MAX) delete env.MALLOC_ARENA_MAX;
  delete env[ARENAS_MARK];
}
