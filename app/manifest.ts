// The web app manifest: "Add to Home screen" on a phone opens StudyLoop as an app of its own,
// straight on the study page, without the browser's toolbars.
import type { MetadataRoute } from "next";

export default function manifest(): MetadataRoute.Manifest {
  return {
    name: "StudyLoop",
    short_name: "StudyLoop",
    description: "Study with your AI tutor: focus, park stray thoughts, keep your wins.",
    start_url: "/study",
    scope: "/",
    display: "standalone",
    background_color: "#f7f5ef",
    theme_color: "#2f6f5e",
    icons: [
      { src: "/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
      { src: "/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
      { src: "/icon-maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
    ],
  };
}
