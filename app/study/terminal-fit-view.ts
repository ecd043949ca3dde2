// A terminal sized for another screen, shown on this page: scaled to its width or scrollable
// (terminal-fit.ts decides), with the cue ("Sized for your laptop · Fit to this screen") once it has
// settled (settled-cue.ts). Measures the size that would fit here; sending it is the console's job.
import type { Terminal } from "@xterm/xterm";
import type { DeviceKind } from "@/server/transports/pty/resize-policy";
import { PHONE_QUERY } from "./phone-support";
import { fitView, sizeCue, TerminalFitLimits } from "./terminal-fit";
import { SettledCue } from "./settled-cue";

export interface TerminalSize {
  readonly cols: number;
  readonly rows: number;
}

/** Proposes the size that fits its element (xterm's FitAddon, or the typing stand-in's). */
export interface SizeFitter {
  proposeDimensions(): { cols: number; rows: number } | undefined;
}

/** This page's kind of device, as the server's resize policy counts it. */
export const deviceKind = (): DeviceKind => (window.matchMedia(PHONE_QUERY).matches ? "phone" : "laptop");

export class TerminalFitView {
  /** The device the terminal is sized for, as the last replay or resize said. */
  sizedFor: DeviceKind | undefined;
  /** The size that fits this page, as last measured. */
  private fits: TerminalSize | undefined;
  private readonly cue: SettledCue;

  constructor(
    private readonly host: HTMLElement,
    private readonly term: Terminal,
    setCue: (cue: string | null) => void,
  ) {
    this.cue = new SettledCue(TerminalFitLimits.CUE_SETTLE_MS, setCue);
  }

  /** The size that would fit here, or undefined while it cannot be measured (a hidden page). */
  measure(fitter: SizeFitter): TerminalSize | undefined {
    let proposed: { cols: number; rows: number } | undefined;
    try {
      proposed = fitter.proposeDimensions();
    } catch {
      proposed = undefined;
    }
    if (!proposed || !Number.isFinite(proposed.cols) || !Number.isFinite(proposed.rows)) return undefined;
    this.fits = { cols: Math.max(2, proposed.cols), rows: Math.max(1, proposed.rows) };
    return this.fits;
  }

  /** Scales (or lets scroll) the terminal to the host and sets the cue: once its size is known. */
  show(): void {
    const { host, term } = this;
    const xterm = term.element;
    const screen = host.querySelector<HTMLElement>(".xterm-screen");
    if (!xterm || !screen) return;
    const naturalWidth = screen.offsetWidth;
    const naturalHeight = screen.offsetHeight;
    const device = deviceKind();
    const view = fitView({
      hostWidth: host.clientWidth,
      naturalWidth,
      hostHeight: host.clientHeight,
      naturalHeight,
      phone: device === "phone",
    });
    xterm.style.transformOrigin = "0 0";
    xterm.style.transform = view.scale < 1 ? `scale(${view.scale})` : "";
    xterm.style.width = `${naturalWidth}px`;
    // Rows past the bottom (a phone) or columns past the edge (scroll mode): the host scrolls to them.
    xterm.style.height = view.scale < 1 ? "" : `${Math.max(naturalHeight, host.clientHeight)}px`;
    host.classList.toggle("terminal-host-scroll", view.scroll || (view.scale >= 1 && naturalHeight > host.clientHeight));
    const fits = this.fits;
    this.cue.set(sizeCue({ cols: term.cols, rows: term.rows, fitCols: fits?.cols, fitRows: fits?.rows, sizedFor: this.sizedFor, device }));
  }

  dispose(): void {
    this.cue.dispose();
  }
}
