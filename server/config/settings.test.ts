import { describe, expect, it } from "vitest";
import { loadSettings, SettingsError, SettingsSchema } from "./settings.ts";

describe("loadSettings", () => {
  it("gives every setting its default when none is set", () => {
    const settings = loadSettings({});
    expect(settings.STUDYLOOP_GRACE_SECONDS).toBe(900);
    expect(settings.STUDYLOOP_MIRROR_HEAP_MB).toBe(1024);
    expect(settings.STUDYLOOP_TMUX_SOCKET).toBeUndefined();
  });

  it("reads numbers given as text", () => {
    expect(loadSettings({ STUDYLOOP_RECORDING_MAX_MB: "0" }).STUDYLOOP_RECORDING_MAX_MB).toBe(0);
  });

  it("says what each setting accepts", () => {
    for (const [name, schema] of Object.entries(SettingsSchema.shape)) expect(schema.description, name).toMatch(/^a /);
  });

  it.each([
    [{ STUDYLOOP_LEASE_SECONDS: "-1" }, 'STUDYLOOP_LEASE_SECONDS="-1": use a number of seconds above 0 (default 30).'],
    [{ STUDYLOOP_MIRROR_HEAP_MB: "9.5" }, 'STUDYLOOP_MIRROR_HEAP_MB="9.5": use a whole number of megabytes, 8 or more (default 1024).'],
    [{ STUDYLOOP_TMUX_SOCKET: "a/b" }, 'STUDYLOOP_TMUX_SOCKET="a/b": use a name of 1 to 64 letters, digits, dots, dashes or underscores.'],
  ])("refuses %j, naming the value and what to write instead", (env, line) => {
    let caught: unknown;
    try {
      loadSettings(env);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SettingsError);
    const message = (caught as SettingsError).message;
    expect(message.split("\n")).toEqual([
      "This setting cannot be used:",
      `  ${line}`,
      "Set it as shown, or unset it for the default, and run the command again.",
    ]);
    expect((caught as SettingsError).problems).toHaveLength(1);
  });

  it("names each bad setting once, however many rules it breaks", () => {
    const error = (() => {
      try {
        loadSettings({ STUDYLOOP_MIRROR_HEAP_MB: "2.5", STUDYLOOP_GRACE_SECONDS: "x" });
      } catch (caught) {
        return caught as SettingsError;
      }
    })();
    expect(error?.problems.map((p) => p.name).sort()).toEqual(["STUDYLOOP_GRACE_SECONDS", "STUDYLOOP_MIRROR_HEAP_MB"]);
  });
});

describe("settings that cannot work together", () => {
  const refusal = (env: Record<string, string>) => {
    try {
      loadSettings(env);
    } catch (error) {
      return error as SettingsError;
    }
    return null;
  };

  it.each([
    [{ STUDYLOOP_LEASE_SECONDS: "2" }, "STUDYLOOP_LEASE_SECONDS and STUDYLOOP_HEARTBEAT_SECONDS"],
    [{ STUDYLOOP_LEASE_SECONDS: "10", STUDYLOOP_HEARTBEAT_SECONDS: "5" }, "STUDYLOOP_LEASE_SECONDS and STUDYLOOP_HEARTBEAT_SECONDS"],
  ])("refuses %j, naming the pair and why", (env, pair) => {
    const error = refusal(env);
    expect(error).toBeInstanceOf(SettingsError);
    expect(error!.problems).toEqual([]);
    expect(error!.message.split("\n")[0]).toBe("These two settings do not work together:");
    expect(error!.message).toContain(`  ${pair}: `);
    expect(error!.message.split("\n").at(-1)).toBe("Change one of each pair (or unset it for its default) and run the command again.");
  });

  it("says what the lease must be, in the learner's numbers", () => {
    expect(refusal({ STUDYLOOP_LEASE_SECONDS: "2" })!.conflicts[0]!.why).toBe(
      "the lease (2 s) must be at least 4 heartbeats (20 s), or a live session would be stopped, or ended by another server, between two heartbeats",
    );
  });

  it.each([
    [{}],
    [{ STUDYLOOP_LEASE_SECONDS: "4", STUDYLOOP_HEARTBEAT_SECONDS: "1" }],
    [{ STUDYLOOP_GRACE_SECONDS: "8", STUDYLOOP_GRACE_WARNING_SECONDS: "5" }],
    [{ STUDYLOOP_GRACE_SECONDS: "3" }],
  ])("accepts %j", (env) => {
    expect(refusal(env)).toBeNull();
  });
});
