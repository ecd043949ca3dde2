// ESLint: Next.js's rules (core web vitals, TypeScript), promise hygiene, and the boundaries between
// the rooms (docs/architecture.md): browser code reaches the server only through common/.
import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import prettier from "eslint-config-prettier/flat";

// Files Next runs on the server (pages, layouts, route handlers) may use the server's modules; every
// other file under app/ can end up in the browser bundle.
const SERVER_ENTRY_POINTS = ["app/**/page.tsx", "app/**/layout.tsx", "app/**/route.ts", "app/**/not-found.tsx", "app/**/*.test.ts"];

/** The server never imports from app/. */
const NO_APP = { group: ["@/app/*", "**/app/*"], message: "The server never imports from app/ (a lower room never imports an upper one)." };

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  prettier,
  globalIgnores([
    ".next/**",
    "dist/**",
    "node_modules/**",
    "server/db/generated/**",
    "server/db/generated-pg/**",
    "bench/peers/**",
    "bench/results/**",
    "test-results/**",
    "playwright-report/**",
    "next-env.d.ts",
  ]),
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      // A timer a callback clears before it is set (owner-probes.ts) is read before it is assigned.
      "prefer-const": ["error", { ignoreReadBeforeAssign: true }],
      // Images here are the learner's own attachments and QR codes as data: URLs, served as they are;
      // a self-hosted, offline app has no use for Next's image optimiser.
      "@next/next/no-img-element": "off",
    },
  },
  {
    // Tests reach into wasm exports and raw rows; `any` there is a probe, not a type hole in the product.
    files: ["**/*.test.ts", "prisma/drift-shape.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off", "@typescript-eslint/no-unsafe-function-type": "off" },
  },
  {
    files: ["server/**/*.ts", "common/**/*.ts", "bench/**/*.ts"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // A forgotten promise on the server is a write that may fail unseen or an unhandled rejection.
      "@typescript-eslint/no-floating-promises": "error",
    },
  },
  {
    files: ["app/**/*.ts", "app/**/*.tsx"],
    ignores: SERVER_ENTRY_POINTS,
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["@/server/*", "**/server/*"],
              allowTypeImports: true,
              message: "Browser code imports values only from common/ (types from server/ are fine): move the browser-safe module there.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["common/**/*.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["@/server/*", "@/app/*", "**/server/*", "**/app/*", "node:*"],
              allowTypeImports: true,
              message:
                "common/ is shared with the browser: it imports values only from other common/ modules and browser-safe packages (types are fine).",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["server/**/*.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": ["error", { patterns: [NO_APP] }],
    },
  },
  {
    // HTTP statuses live only at the edge: below it a refusal is a Refusal (server/errors) or a room's
    // own error, and toApiError gives it its status. (A later block replaces the rule's options, so
    // NO_APP is repeated.)
    files: ["server/**/*.ts"],
    ignores: ["server/api/**", "server/http/**", "server/realtime/**", "server/cli/**", "**/*.test.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            NO_APP,
            {
              group: ["**/api/api-error*"],
              message: "HTTP statuses live only at the edge: throw a Refusal (server/errors/refusal.ts) or the room's own error.",
            },
          ],
        },
      ],
    },
  },
]);
