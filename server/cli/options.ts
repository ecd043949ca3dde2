// Command-line parsing for `studyloop`: pure, so every refusal can be tested without a process.

export type OptionKind = "string" | "port" | "boolean";

export interface OptionSpec {
  readonly name: string; // long name without the dashes
  readonly kind: OptionKind;
  readonly value?: string; // placeholder shown in --help
  readonly description: string;
}

export interface CommandSpec {
  readonly name: string;
  readonly summary: string;
  readonly usage: string;
  readonly options: readonly OptionSpec[];
  /** Positional arguments accepted (0 means none). */
  readonly maxPositionals?: number;
}

export type ParsedOptions = Record<string, string | number | boolean | undefined>;

export interface ParsedCommand {
  readonly options: ParsedOptions;
  readonly positionals: string[];
  readonly help: boolean;
}

/** A mistake on the command line: printed as one sentence, exit code 2. */
export class UsageError extends Error {
  readonly exitCode: number = 2;
}

export function parseCommand(spec: CommandSpec, argv: readonly string[]): ParsedCommand {
  const options: ParsedOptions = {};
  const positionals: string[] = [];
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--help" || arg === "-h") {
      help = true;
      continue;
    }
    if (arg === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith("-") || arg === "-") {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    const option = arg.startsWith("--") ? spec.options.find((o) => o.name === name) : undefined;
    if (!option) {
      throw new UsageError(`Unknown option ${arg} for "studyloop ${spec.name}". Run "studyloop ${spec.name} --help" to see the options.`);
    }
    if (option.kind === "boolean") {
      if (eq !== -1) throw new UsageError(`The option --${name} takes no value.`);
      options[option.name] = true;
      continue;
    }
    let raw: string | undefined;
    if (eq !== -1) raw = arg.slice(eq + 1);
    else {
      raw = argv[i + 1];
      if (raw === undefined || raw.startsWith("--")) {
        throw new UsageError(`The option --${name} needs a value (${option.value ?? "a value"}).`);
      }
      i++;
    }
    options[option.name] = option.kind === "port" ? parsePort(name, raw) : raw;
  }
  if (!help && positionals.length > (spec.maxPositionals ?? 0)) {
    throw new UsageError(`Unexpected argument "${positionals[spec.maxPositionals ?? 0]}" for "studyloop ${spec.name}".`);
  }
  return { options, positionals, help };
}

export function parsePort(name: string, raw: string): number {
  if (!/^\d+$/.test(raw)) throw new UsageError(`--${name} must be a whole number from 1 to 65535, not "${raw}".`);
  const port = Number(raw);
  // 0 asks the system for any free port (the URL printed says which).
  if (port > 65535) throw new UsageError(`--${name} must be from 1 to 65535, not ${port}.`);
  return port;
}

export function formatHelp(spec: CommandSpec): string {
  const width = Math.max(...spec.options.map((o) => optionLabel(o).length), 10);
  const lines = [`Usage: ${spec.usage}`, "", spec.summary, "", "Options:"];
  for (const o of spec.options) lines.push(`  ${optionLabel(o).padEnd(width)}  ${o.description}`);
  lines.push(`  ${"--help".padEnd(width)}  Show this help.`);
  return lines.join("\n");
}

function optionLabel(o: OptionSpec): string {
  return o.kind === "boolean" ? `--${o.name}` : `--${o.name} ${o.value ?? "VALUE"}`;
}
