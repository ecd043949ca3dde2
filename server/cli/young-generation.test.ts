// bin/young-generation.js: the server's young generation stays at its first size, also after a worker
// thread (a terminal's mirror) is started, which makes V8 raise the growth factor again. Each case runs
// in its own Node, as the setting is process-wide; the control case shows the same work grows it.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../config/paths.ts";

const MODULE = pathToFileURL(path.join(PROJECT_ROOT, "bin", "young-generation.js")).href;

/** The main thread's young generation (MB reserved) after a worker starts and a working set churns. */
function youngGenerationAfterWork(hold: boolean): number {
  const script = `
    import v8 from "node:v8";
    import { Worker } from "node:worker_threads";
    ${hold ? `(await import(${JSON.stringify(MODULE)})).holdYoungGeneration();` : ""}
    const worker = new Worker("setInterval(() => {}, 1000)", {
      eval: true,
      resourceLimits: { maxYoungGenerationSizeMb: 3, maxOldGenerationSizeMb: 1024 },
    });
    await new Promise((resolve) => worker.once("online", resolve));
    await new Promise((resolve) => setImmediate(resolve));
    const kept = [];
    for (let i = 0; i < 600000; i++) {
      kept.push({ line: "output " + i, cells: [i, i + 1] });
      if (kept.length > 150000) kept.splice(0, 50000);
    }
    const space = v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space");
    console.log(space.space_size / 1048576);
    await worker.terminate();
  `;
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
  expect(run.stderr).toBe("");
  return Number(run.stdout.trim());
}

describe("holdYoungGeneration", () => {
  it("keeps the main thread's young generation small after a worker thread starts", () => {
    expect(youngGenerationAfterWork(true)).toBeLessThanOrEqual(4);
  });

  it("is what keeps it small: the same work without it grows it", () => {
    expect(youngGenerationAfterWork(false)).toBeGreaterThan(8);
  });
});
