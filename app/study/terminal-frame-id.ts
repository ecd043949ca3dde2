/** The terminal's frame on the study page: focus inside it counts as the terminal's (early-catcher.ts). */
export const TERMINAL_FRAME_ID = "terminal-frame";
