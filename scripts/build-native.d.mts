// Types for scripts/build-native.mjs (plain JavaScript: it runs during npm install).
export interface Runtime {
  readonly abi: string;
  readonly platform: string;
  readonly arch: string;
  readonly glibc?: string;
}
export const ROOT: string;
export const LOG_DIR: string;
export function took(ms: number): string;
export function cacheKey(name: string, version: string, runtime: Runtime): string;
export function thisRuntime(): Runtime;
export function cacheRoot(env?: Record<string, string | undefined>): string | null;
export function headersOnThisMachine(env?: Record<string, string | undefined>): { nodedir: string; version: string }[];
export function buildNative(options?: {
  say?: (line: string) => void;
  warn?: (line: string) => void;
  env?: Record<string, string | undefined>;
}): Promise<boolean>;
