"use client";
// Marks the page as interactive once React has hydrated it: the browser tests wait for this
// instead of typing into a form React has not taken over yet.
import { useEffect } from "react";

export function HydrationMarker() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return null;
}
