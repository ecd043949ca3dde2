import type { Metadata, Viewport } from "next";
import Link from "next/link";
import "./globals.css";
import { HydrationMarker } from "./components/HydrationMarker";
import { DueNavLink } from "./review/DueNavLink";
import { getRuntime } from "@/server/runtime";
import { NotificationCenter } from "./components/NotificationCenter";

// Every page is rendered per request: the CSP's script nonce is new on each response, and Next can
// only stamp it on the scripts of a page it renders then (server/security/headers.ts).
export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: "StudyLoop",
  description: "Study with your AI tutor: focus, park stray thoughts, keep your wins.",
  // The manifest (app/manifest.ts), favicon and icons (app/icon.svg, app/apple-icon.png) are linked by Next.
  applicationName: "StudyLoop",
  appleWebApp: { capable: true, title: "StudyLoop", statusBarStyle: "default" },
};

export const viewport: Viewport = {
  width: "device-width",
  initialScale: 1,
  // The phone's keyboard shrinks the visual viewport only; the study room follows it (visual-viewport.ts).
  interactiveWidget: "resizes-visual",
  themeColor: [
    { media: "(prefers-color-scheme: light)", color: "#f7f5ef" },
    { media: "(prefers-color-scheme: dark)", color: "#15171c" },
  ],
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // The navigation never fails a page: without the count, "Review" is a plain link.
  const due = await getRuntime()
    .cards.dueCount()
    .catch(() => 0);
  return (
    <html lang="en">
      <body>
        {/* The first stop of Tab on every page: past the navigation, to the page itself. */}
        <a href="#content" className="skip-link">
          Skip to content
        </a>
        <header className="topbar">
          <Link href="/" className="brand" prefetch={false}>
            StudyLoop
          </Link>
          {/* No prefetching: every page is rendered per request, so prefetching the nav would render
              four pages on the server (and parse them here) on every page load, while the terminal is
              being restored. A click costs one request to a server on this machine or the LAN. */}
          <nav aria-label="Main">
            <Link href="/" prefetch={false}>
              Dashboard
            </Link>
            <Link href="/study" prefetch={false}>
              Study
            </Link>
            <DueNavLink due={due} />
            <Link href="/parking" prefetch={false}>
              Parking lot
            </Link>
            <Link href="/devices" prefetch={false}>
              Devices
            </Link>
          </nav>
        </header>
        <main className="page" id="content" tabIndex={-1}>
          {children}
        </main>
        <NotificationCenter />
        <HydrationMarker />
      </body>
    </html>
  );
}
