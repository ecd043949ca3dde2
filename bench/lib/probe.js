// Injected into every benchmark page before its own scripts (Playwright addInitScript). It finds the
// page's xterm.js Terminal when the page publishes it (ours: window.__studyloopTerm, wetty:
// window.wetty_term, bare: window.__benchTerm) and records, in page time (performance.now(), ms since
// navigation start):
// - marks: every OSC 7777 sequence the workload prints ("done", "prompt", "lines"), when xterm parsed
//   it and when the next frame was rendered after that;
// - echo: for the last printable key pressed, when its echo moved the cursor and when that was rendered;
// - ctrlc: when Ctrl-C was pressed (the event's own time stamp);
// - restore: when the buffer first held the restored scrollback (window.__benchRestore set by the test)
//   and when that was rendered;
// - writes: the largest single write (the reattach snapshot), in chars and UTF-8 bytes;
// - starved: how long xterm had parsed everything it was given and waited for the next write (ms, and
//   how many such waits), so a flood's time can be split into parsing and waiting for data; a mark
//   carries the total at the moment it was parsed;
// - attachSentAt: when the page sent its first socket.io "terminal:attach" (ours only), so the
//   pipeline's part of a reattach can be told from the page load's;
// - attachAckAt: when the server acknowledged that attach (the page holds typing until then);
// - openedAt: when the terminal rendered its first frame (it is on the page: typing can go to it);
// - wire: bytes the page's WebSockets received from the attach request until the restored scrollback
//   was parsed (the snapshot as it travels: compressed when the server compresses it);
// - previewPaint: when the server-rendered screen (ours: rows marked elementtiming="screen-preview")
//   was painted, and whether it held the text the reattach test waits for (Element Timing API).
(() => {
  const bench = {
    term: null,
    marks: [],
    pendingRender: [],
    echo: null,
    ctrlc: null,
    restore: null,
    writes: { max: 0, maxBytes: 0, count: 0, total: 0 },
    starved: { ms: 0, waits: 0, pending: 0, since: null },
    attachSentAt: null,
    attachAckAt: null,
    openedAt: null,
    wire: { bytes: 0, messages: 0 },
    previewPaint: null,
  };
  window.__bench = bench;

  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.identifier !== "screen-preview" || bench.previewPaint) continue;
      const wanted = window.__benchRestore;
      const screen = document.querySelector("[data-testid=screen-preview]")?.textContent ?? "";
      bench.previewPaint = { at: entry.renderTime || entry.loadTime, hasText: !!wanted && screen.includes(wanted.text) };
    }
  }).observe({ type: "element", buffered: true });

  // Received messages are kept (not measured) while the restore runs and measured once it is parsed,
  // so counting costs the restore nothing.
  let received = [];
  const measureWire = () => {
    const encoder = new TextEncoder();
    for (const data of received) {
      bench.wire.messages++;
      bench.wire.bytes += typeof data === "string" ? encoder.encode(data).length : (data.byteLength ?? data.size ?? 0);
    }
    received = null;
  };
  const NativeWebSocket = window.WebSocket;
  window.WebSocket = class extends NativeWebSocket {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (event) => {
        if (bench.attachSentAt === null) return;
        if (received && window.__benchRestore) received.push(event.data);
        if (bench.attachAckAt === null && attachAck && typeof event.data === "string" && event.data.startsWith(attachAck))
          bench.attachAckAt = performance.now();
      });
    }
  };
  // socket.io's packets: 42<id>["terminal:attach",...] asks, 43<id>[...] acknowledges.
  let attachAck = null;
  const send = NativeWebSocket.prototype.send;
  NativeWebSocket.prototype.send = function (data) {
    if (bench.attachSentAt === null && typeof data === "string" && data.includes('"terminal:attach"')) {
      bench.attachSentAt = performance.now();
      const id = /^42(\d+)\[/.exec(data)?.[1];
      if (id) attachAck = `43${id}[`;
    }
    return send.call(this, data);
  };

  const afterRender = (record) => bench.pendingRender.push(record);

  function checkEcho(term) {
    const echo = bench.echo;
    if (!echo || echo.parsedAt !== null) return;
    const buffer = term.buffer.active;
    const y = buffer.baseY + buffer.cursorY;
    if (y > echo.y || (y === echo.y && buffer.cursorX >= echo.x)) {
      echo.parsedAt = performance.now();
      afterRender(echo);
    }
  }

  function checkRestore(term) {
    const wanted = window.__benchRestore;
    if (!wanted || bench.restore) return;
    const buffer = term.buffer.normal;
    if (buffer.length < wanted.minLines) return;
    for (let i = buffer.length - 1; i >= Math.max(0, buffer.length - term.rows - 1); i--) {
      const line = buffer.getLine(i);
      if (line && line.translateToString(true).includes(wanted.text)) {
        // What this terminal was given until now: the snapshot (ours writes it in pieces), in bytes
        // when it came as bytes (chars when as a string).
        bench.restore = { parsedAt: performance.now(), renderedAt: null, lines: buffer.length, written: bench.writes.total };
        afterRender(bench.restore);
        if (received) setTimeout(measureWire, 0);
        return;
      }
    }
  }

  function hook(term) {
    if (!term || bench.term === term) return;
    bench.term = term;
    term.parser.registerOscHandler(7777, (data) => {
      const mark = { name: data, parsedAt: performance.now(), wall: Date.now(), renderedAt: null, starvedMs: bench.starved.ms };
      bench.marks.push(mark);
      afterRender(mark);
      return true;
    });
    term.onWriteParsed(() => {
      checkEcho(term);
      checkRestore(term);
    });
    term.onRender(() => {
      bench.openedAt ??= performance.now();
      if (bench.pendingRender.length === 0) return;
      const now = performance.now();
      for (const record of bench.pendingRender) record.renderedAt = now;
      bench.pendingRender = [];
    });
    const write = term.write.bind(term);
    term.write = (data, callback) => {
      const chars = typeof data === "string" ? data.length : data.byteLength;
      bench.writes.count++;
      bench.writes.total += chars;
      if (chars > bench.writes.max) {
        bench.writes.max = chars;
        bench.writes.maxBytes = typeof data === "string" ? new TextEncoder().encode(data).length : chars;
      }
      const starved = bench.starved;
      if (starved.pending === 0 && starved.since !== null) {
        starved.ms += performance.now() - starved.since;
        starved.waits++;
      }
      starved.pending++;
      return write(data, () => {
        if (--starved.pending === 0) starved.since = performance.now();
        callback?.();
      });
    };
  }

  for (const name of ["__studyloopTerm", "wetty_term", "__benchTerm"]) {
    let value;
    Object.defineProperty(window, name, {
      configurable: true,
      get: () => value,
      set: (next) => {
        value = next;
        hook(next);
      },
    });
  }

  // Ours: the stand-in that takes typing while the terminal's first replay is parsed off the page
  // (app/study/typing-stand-in.ts): its first frame is the terminal being on the page.
  let standIn;
  Object.defineProperty(window, "__studyloopStandIn", {
    configurable: true,
    get: () => standIn,
    set: (next) => {
      standIn = next;
      next?.onRender(() => (bench.openedAt ??= performance.now()));
    },
  });

  window.addEventListener(
    "keydown",
    (event) => {
      const term = bench.term;
      if (!term) return;
      if (event.ctrlKey && (event.key === "c" || event.key === "C")) {
        bench.ctrlc = { t0: event.timeStamp };
        return;
      }
      if (event.key.length !== 1 || event.ctrlKey || event.altKey || event.metaKey) return;
      const buffer = term.buffer.active;
      bench.echo = { t0: event.timeStamp, y: buffer.baseY + buffer.cursorY, x: buffer.cursorX + 1, parsedAt: null, renderedAt: null };
    },
    true,
  );
})();
