// The live terminal's visible screen, rendered on the server: the learner sees the screen as it is
// with the page's first paint, while xterm.js loads and replays the whole scrollback over it.
import type { CSSProperties } from "react";
import type { PreviewColor, PreviewRun, ScreenPreview } from "@/server/transports/pty/screen-preview";
import { paletteCss, xterm256 } from "../components/terminal-theme";

const color = (value: PreviewColor | undefined): string | undefined =>
  value === undefined ? undefined : typeof value === "string" ? value : value < 16 ? `var(--ansi-${value})` : xterm256(value);

function runStyle(run: PreviewRun): CSSProperties | undefined {
  // Like xterm.js (drawBoldTextInBrightColors): bold text in one of the 8 base colours is drawn bright.
  let fg = color(run.bold && typeof run.fg === "number" && run.fg < 8 ? run.fg + 8 : run.fg);
  let bg = color(run.bg);
  if (run.inverse) [fg, bg] = [bg ?? "var(--term-bg)", fg ?? "var(--term-fg)"];
  const decoration = [run.underline ? "underline" : "", run.strike ? "line-through" : ""].filter(Boolean).join(" ");
  const style: CSSProperties = {
    ...(fg ? { color: fg } : {}),
    ...(bg ? { backgroundColor: bg } : {}),
    ...(run.bold ? { fontWeight: "bold" } : {}),
    ...(run.italic ? { fontStyle: "italic" } : {}),
    ...(run.dim ? { opacity: 0.5 } : {}),
    ...(decoration ? { textDecoration: decoration } : {}),
    ...(run.invisible ? { visibility: "hidden" } : {}),
    ...(run.wide ? { display: "inline-block", width: "2ch", textAlign: "center" } : {}),
  };
  return Object.keys(style).length > 0 ? style : undefined;
}

export function ScreenPreviewView({ preview }: { preview: ScreenPreview }) {
  return (
    <>
      <style>{paletteCss(".screen-preview")}</style>
      <pre className="screen-preview" aria-hidden="true" data-testid="screen-preview">
        {preview.lines.map((runs, y) => (
          // elementtiming: when the rows were painted (Element Timing API, read by the benchmark); Chromium
          // times text by its block, the row.
          <div key={y} elementtiming="screen-preview">
            {runs.length === 0
              ? " "
              : runs.map((run, i) => (
                  <span key={i} style={runStyle(run)}>
                    {run.text}
                  </span>
                ))}
          </div>
        ))}
      </pre>
    </>
  );
}
