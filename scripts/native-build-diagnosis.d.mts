// Types for scripts/native-build-diagnosis.mjs (plain JavaScript: it runs during npm install).
export type BuildFailureCause =
  "python-missing" | "make-missing" | "compiler-missing" | "nodedir-without-headers" | "headers-unreachable" | "compiler-error" | "unknown";
export interface BuildDiagnosis {
  readonly cause: BuildFailureCause;
  readonly what: string;
  readonly lines: string[];
  readonly url?: string;
  readonly nodedir?: string;
  readonly program?: string;
}
export interface HeadersFound {
  readonly nodedir: string;
  readonly version: string;
}
export function diagnoseBuildLog(log: string): BuildDiagnosis;
export function wayOut(diagnosis: BuildDiagnosis, machine: { nodeVersion: string; headers?: HeadersFound[] }): string[];
