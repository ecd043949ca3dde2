// Types for bin/install-check.js (plain JavaScript: it runs before anything is compiled).
export interface InstallRecord {
  readonly node: string;
  readonly abi: string;
  readonly finishedAt?: string;
}
export declare const INSTALL_RECORD: string;
export declare const INSTALL_PRODUCTS: readonly { readonly what: string; readonly paths: readonly string[] }[];
export declare function unfinishedInstall(
  exists: (relativePath: string) => boolean,
  record: InstallRecord | null,
  abi: string,
  nodeVersion: string,
  stillLoads?: () => boolean,
): string | null;
export declare function readInstallRecord(root?: string): InstallRecord | null;
export declare function checkInstall(root?: string): string | null;
