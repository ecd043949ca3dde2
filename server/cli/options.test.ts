import { describe, expect, it } from "vitest";
import { UsageError, formatHelp, parseCommand } from "./options.ts";
import { webCommand } from "./web.ts";
import { resolveDataDir } from "../config/paths.ts";

describe("studyloop web options", () => {
  it("takes every documented option", () => {
    const parsed = parseCommand(webCommand, ["--port", "9000", "--host=0.0.0.0", "--data-dir", "/tmp/x", "--dev"]);
    expect(parsed.options).toEqual({ port: 9000, host: "0.0.0.0", "data-dir": "/tmp/x", dev: true });
  });

  it("defaults to nothing so the command applies its own defaults", () => {
    expect(parseCommand(webCommand, []).options).toEqual({});
  });

  it.each([
    [["--nope"], /Unknown option --nope/],
    [["--port", "eighty"], /--port must be a whole number/],
    [["--port", "70000"], /--port must be from 1 to 65535/],
    [["--port", "-1"], /--port needs a value|must be a whole number/],
    [["--port"], /--port needs a value/],
    [["--dev=yes"], /--dev takes no value/],
    [["stray"], /Unexpected argument "stray"/],
  ])("refuses %j with one clear sentence", (argv, message) => {
    expect(() => parseCommand(webCommand, argv)).toThrow(UsageError);
    expect(() => parseCommand(webCommand, argv)).toThrow(message);
  });

  it("--help describes every option", () => {
    const help = formatHelp(webCommand);
    for (const name of ["--port", "--host", "--data-dir", "--dev", "--help"]) expect(help).toContain(name);
    expect(parseCommand(webCommand, ["--help"]).help).toBe(true);
  });
});

describe("data directory", () => {
  it("prefers the flag, then STUDYLOOP_DATA_DIR, then XDG_DATA_HOME, then ~/.local/share", () => {
    expect(resolveDataDir("/flag", { STUDYLOOP_DATA_DIR: "/env", XDG_DATA_HOME: "/xdg" }, "/home/l")).toBe("/flag");
    expect(resolveDataDir(undefined, { STUDYLOOP_DATA_DIR: "/env", XDG_DATA_HOME: "/xdg" }, "/home/l")).toBe("/env");
    expect(resolveDataDir(undefined, { XDG_DATA_HOME: "/xdg" }, "/home/l")).toBe("/xdg/studyloop");
    expect(resolveDataDir(undefined, {}, "/home/l")).toBe("/home/l/.local/share/studyloop");
  });
});
