// The page's terminal never answers a program's queries: the server's mirror does, once, even with no
// page open (server/transports/pty/terminal-extras.ts). Left to itself every open page's xterm.js would
// answer too (two pages: two answers at the shell's prompt), and its answers would count as typing.
// Handlers registered here run before xterm's own and consume the query.

/** The parser API of @xterm/xterm and @xterm/headless alike (the tests use the headless one). */
interface QueryParser {
  registerCsiHandler(
    id: { prefix?: string; intermediates?: string; final: string },
    callback: (params: (number | number[])[]) => boolean,
  ): { dispose(): void };
  registerDcsHandler(
    id: { prefix?: string; intermediates?: string; final: string },
    callback: (data: string, params: (number | number[])[]) => boolean,
  ): { dispose(): void };
  registerOscHandler(ident: number, callback: (data: string) => boolean): { dispose(): void };
}

/** CSI queries: DA1, DA2, DA3, DSR/CPR, DECXCPR, DECRQM (ANSI and DEC), XTVERSION, kitty's flags query. */
const CSI_QUERIES = [
  { final: "c" },
  { prefix: ">", final: "c" },
  { prefix: "=", final: "c" },
  { final: "n" },
  { prefix: "?", final: "n" },
  { intermediates: "$", final: "p" },
  { prefix: "?", intermediates: "$", final: "p" },
  { prefix: ">", final: "q" },
  { prefix: "?", final: "u" },
] as const;

/** DCS queries: DECRQSS, XTGETTCAP. */
const DCS_QUERIES = [
  { intermediates: "$", final: "q" },
  { intermediates: "+", final: "q" },
] as const;

/** OSC colour numbers whose "?" asks for a colour (palette, foreground, background, cursor). */
const OSC_COLOURS = [4, 10, 11, 12] as const;

/** Registers the handlers on `parser` (a Terminal's `.parser`); returns what removes them. */
export function swallowTerminalQueries(parser: QueryParser): () => void {
  const handlers = [
    ...CSI_QUERIES.map((id) => parser.registerCsiHandler(id, () => true)),
    // CSI t: xterm.js answers some window reports when its windowOptions allow them; none are asked for here.
    parser.registerCsiHandler({ final: "t" }, (params) => params[0] === 14 || params[0] === 16 || params[0] === 18 || params[0] === 21),
    ...DCS_QUERIES.map((id) => parser.registerDcsHandler(id, () => true)),
    // A set ("11;#102030") goes on to xterm, which draws it; a query ("11;?") stops here.
    ...OSC_COLOURS.map((ident) => parser.registerOscHandler(ident, (data) => data.split(";").includes("?"))),
  ];
  return () => {
    for (const handler of handlers) handler.dispose();
  };
}
