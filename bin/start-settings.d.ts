// Types for bin/start-settings.js (plain JavaScript: it runs before anything is compiled).
export declare const DEFAULT_ARENA_MAX: string;
export declare const ARENAS_MARK: string;
export declare function forgetStartSettings(env?: Record<string, string | undefined>): void;
