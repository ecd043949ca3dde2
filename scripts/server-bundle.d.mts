// Types for scripts/server-bundle.mjs (plain JavaScript: it runs before anything is compiled).
export type BundleVerdict = "missing" | "stale" | "fresh";
export interface BundleMeta {
  readonly builtAt: number;
  readonly inputs: readonly string[];
}
export const ROOT: string;
export const OUT_DIR: string;
export const ENTRY: string;
export const META: string;
export function bundleVerdict(meta: unknown, entryExists: boolean, mtimeOf: (input: string) => number | undefined): BundleVerdict;
export function loadsWithRequire(specifier: string, resolve: (specifier: string) => string): boolean;
export function currentVerdict(): BundleVerdict;
export function buildServerBundle(options?: { clean?: boolean }): Promise<string>;
export function ensureServerBundle(): Promise<string>;
