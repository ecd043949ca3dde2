// The terminal palette lives in common/ (the server's mirror answers colour queries with it too).
export * from "../../common/terminal-theme";
