import { describe, expect, it } from "vitest";
import { DEFAULT_WAIT_RULE } from "./input-wait.ts";
import { parseNotifyConfig } from "./notify-config.ts";

describe("parseNotifyConfig", () => {
  it("no section: the defaults for every agent", () => {
    const c = parseNotifyConfig({ agents: {} });
    expect(c.problem).toBeNull();
    expect(c.ruleFor("claude")).toEqual(DEFAULT_WAIT_RULE);
  });

  it("an agent's own rule overrides the common one field by field", () => {
    const c = parseNotifyConfig({ notifications: { waiting: { idleSeconds: 8 }, agents: { codex: { bell: false, prompt: "^› $" } } } });
    expect(c.ruleFor("claude")).toMatchObject({ bell: true, idleSeconds: 8 });
    const codex = c.ruleFor("codex");
    expect(codex).toMatchObject({ bell: false, idleSeconds: 8 });
    expect(codex.prompt.test("› ")).toBe(true);
    expect(codex.question).toBe(DEFAULT_WAIT_RULE.question);
  });

  it("a bad section is reported and the defaults apply", () => {
    const c = parseNotifyConfig({ notifications: { agents: { claude: { question: "(" } } } });
    expect(c.problem).toMatch(/notifications\.agents\.claude\.question is not a valid regular expression/);
    expect(c.ruleFor("claude")).toEqual(DEFAULT_WAIT_RULE);
    expect(parseNotifyConfig({ notifications: { waiting: { idleSeconds: -1 } } }).problem).toMatch(/idleSeconds/);
  });

  it("allowHosts: the hosts on this machine or the LAN notifications may go to; a bad one is reported", () => {
    expect(parseNotifyConfig({ notifications: { allowHosts: ["ntfy.lan", "192.168.1.10", "[::1]"] } }).allowHosts).toEqual([
      "ntfy.lan",
      "192.168.1.10",
      "[::1]",
    ]);
    expect(parseNotifyConfig({}).allowHosts).toEqual([]);
    const bad = parseNotifyConfig({ notifications: { allowHosts: ["http://ntfy.lan/topic"] } });
    expect(bad.problem).toMatch(/notifications\.allowHosts\.0 is not a host name or IP address/);
    expect(bad.allowHosts).toEqual([]);
  });
});
