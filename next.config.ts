import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Native and server-only packages stay out of the bundle: the custom server loads them once.
  serverExternalPackages: [
    "node-pty",
    "better-sqlite3",
    "@prisma/client",
    "@prisma/adapter-better-sqlite3",
    "@xterm/headless",
    "@xterm/addon-serialize",
    "socket.io",
  ],
  // `npm run typecheck` (part of `npm test`) runs tsc over the whole project once; the build need not
  // check the pages a second time.
  typescript: { ignoreBuildErrors: true },
  poweredByHeader: false,
  // The stylesheets (ours and xterm.js's, ~20 KB) go into the page itself: the first paint, which
  // shows a live session's screen (app/study/ScreenPreview.tsx), waits for no further request.
  experimental: {
    inlineCss: true,
    // Next would load every page and route handler while it prepares (~0.3 s of CPU before the server is
    // ready, and their memory for good). The server renders the pages a learner opens first right after
    // it is ready instead (warmPages, server/http/next-app.ts); other routes load on their first request.
    preloadEntriesOnStart: false,
  },
  reactStrictMode: true,
  devIndicators: false,
};

export default nextConfig;
