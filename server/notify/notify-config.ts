// The learner's notification settings in studyloop.config.json (docs/notifications.md): the
// "waiting for input" rule per agent, and the hosts on this machine or the LAN that notifications may
// be sent to (allowHosts: a self-hosted ntfy; address-class.ts). Read with one schema;
// a bad section is reported and the defaults apply (a broken config never stops the server).
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { CONFIG_FILE_NAME } from "../config/paths.ts";
import { DEFAULT_WAIT_RULE, type WaitRule } from "./input-wait.ts";

const pattern = z
  .string()
  .min(1)
  .max(500)
  .refine((s) => {
    try {
      new RegExp(s, "u");
      return true;
    } catch {
      return false;
    }
  }, "is not a valid regular expression");

const RuleSchema = z
  .object({
    bell: z.boolean(),
    idleSeconds: z.number().positive().max(3600),
    question: pattern,
    prompt: pattern,
    longRunSeconds: z
      .number()
      .min(0)
      .max(24 * 3600),
  })
  .partial();

export const NotifyConfigSchema = z.object({
  notifications: z
    .object({
      /** Applies to every agent; an agent's own entry overrides it field by field. */
      waiting: RuleSchema.default({}),
      agents: z.record(z.string(), RuleSchema).default({}),
      /** Hosts (names or IP addresses) on this machine or a private network that ntfy URLs and push endpoints may name. */
      allowHosts: z
        .array(z.string().regex(/^(\[[0-9A-Fa-f:.]{2,45}\]|[0-9A-Fa-f:.]{2,45}|[A-Za-z0-9.-]{1,253})$/, "is not a host name or IP address"))
        .max(50)
        .default([]),
    })
    .default({ waiting: {}, agents: {}, allowHosts: [] }),
});

type RuleInput = z.infer<typeof RuleSchema>;

export interface NotifyConfig {
  ruleFor(agent: string): WaitRule;
  /** Hosts on this machine or the LAN the learner allowed notifications to be sent to. */
  readonly allowHosts: readonly string[];
  /** A sentence about a bad notifications section, or null. */
  readonly problem: string | null;
}

export function parseNotifyConfig(json: unknown): NotifyConfig {
  const parsed = NotifyConfigSchema.safeParse(json ?? {});
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    return {
      ruleFor: () => DEFAULT_WAIT_RULE,
      allowHosts: [],
      problem: `${CONFIG_FILE_NAME}: ${first?.path.join(".") ?? "notifications"} ${first?.message ?? "is not valid"}; the default notification rules apply.`,
    };
  }
  const { waiting, agents, allowHosts } = parsed.data.notifications;
  return { ruleFor: (agent) => toRule({ ...waiting, ...(agents[agent] ?? {}) }), allowHosts, problem: null };
}

/** Reads the data directory's config now (it is small; sessions start rarely). */
export function readNotifyConfig(dataDir: string): NotifyConfig {
  const file = path.join(dataDir, CONFIG_FILE_NAME);
  let json: unknown = {};
  try {
    json = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    // Missing or unreadable: the agent registry reports a broken file; here the defaults apply.
  }
  return parseNotifyConfig(json);
}

function toRule(input: RuleInput): WaitRule {
  return {
    bell: input.bell ?? DEFAULT_WAIT_RULE.bell,
    idleSeconds: input.idleSeconds ?? DEFAULT_WAIT_RULE.idleSeconds,
    question: input.question ? new RegExp(input.question, "u") : DEFAULT_WAIT_RULE.question,
    prompt: input.prompt ? new RegExp(input.prompt, "u") : DEFAULT_WAIT_RULE.prompt,
    longRunSeconds: input.longRunSeconds ?? DEFAULT_WAIT_RULE.longRunSeconds,
  };
}
