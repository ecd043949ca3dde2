// Types for scripts/prisma-wasm.mjs (plain JavaScript: the server bundle's build runs it).
export const WASM_DIR: string;
export class GeneratedClientChanged extends Error {}
export function replaceWasmLoader(source: string, file?: string): { contents: string; name: string };
export function compilerBytes(name: string, root: string): Promise<Buffer>;
export function prismaWasmFromFile(needed: Set<string>): { name: string; setup(build: unknown): void };
