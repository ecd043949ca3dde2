"use client";
// The study room is exactly as tall as what the learner can see: on a phone with the keyboard open
// that is the visual viewport, not the layout viewport (globals.css reads --app-height).
import { useEffect } from "react";

export function useVisualViewportHeight(): void {
  useEffect(() => {
    const viewport = window.visualViewport;
    if (!viewport) return;
    const root = document.documentElement;
    let queued = 0;
    const apply = () => {
      queued = 0;
      root.style.setProperty("--app-height", `${Math.round(viewport.height)}px`);
      // Some phones pan the page up under the keyboard; the room is already sized to fit, so undo it.
      if (window.scrollY !== 0) window.scrollTo(0, 0);
    };
    const schedule = () => {
      if (!queued) queued = requestAnimationFrame(apply);
    };
    apply();
    viewport.addEventListener("resize", schedule);
    viewport.addEventListener("scroll", schedule);
    return () => {
      if (queued) cancelAnimationFrame(queued);
      viewport.removeEventListener("resize", schedule);
      viewport.removeEventListener("scroll", schedule);
      root.style.removeProperty("--app-height");
    };
  }, []);
}
