import type { Metadata, Viewport } from "next";
import Link from "next/link";
import "./globals.css";
import { HydrationMarker } from "./components/HydrationMarker";

// Every page is rendered per request: the CSP's script nonce is new on each response, and Next can
// only stamp it on the scripts of a page it renders then (server/security/headers.ts).
export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: "StudyLoop",
  description: "Study with your AI tutor: focus, park stray thoughts, keep your wins.",
};

export const viewport: Viewport = {
  width: "device-width",
  initialScale: 1,
  themeColor: [
    { media: "(prefers-color-scheme: light)", color: "#f7f5ef" },
    { media: "(prefers-color-scheme: dark)", color: "#15171c" },
  ],
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body>
        <header className="topbar">
          <Link href="/" className="brand">
            StudyLoop
          </Link>
          <nav aria-label="Main">
            <Link href="/">Dashboard</Link>
            <Link href="/study">Study</Link>
            <Link href="/parking">Parking lot</Link>
            <Link href="/devices">Devices</Link>
          </nav>
        </header>
        <main className="page">{children}</main>
        <HydrationMarker />
      </body>
    </html>
  );
}
