// Injected by bench/reattach-trace.ts besides probe.js: what a reattach's waterfall needs beyond it (the
// WebSocket opened, its first messages, socket.io polling, hydration, long tasks, the early keys'
// worker), read by __traceRead().
(() => {
  const t = { longTasks: [], frames: [] };
  window.__trace = t;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) t.longTasks.push([Math.round(e.startTime), Math.round(e.duration)]);
  }).observe({ type: "longtask", buffered: true });
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      t.wsCreated ??= Math.round(performance.now());
      this.addEventListener("open", () => (t.wsOpen ??= Math.round(performance.now())));
      this.addEventListener("message", (event) => {
        const d = event.data;
        if (t.frames.length < 8)
          t.frames.push(`${Math.round(performance.now())} ${typeof d === "string" ? d.slice(0, 30) : `binary ${d.byteLength ?? d.size}`}`);
      });
    }
  };
  // The early keys' worker (common/study/early-worker.ts): when the page made it, posted it its first
  // key, and heard it was done (the handover).
  const NativeWorker = window.Worker;
  if (NativeWorker)
    window.Worker = class extends NativeWorker {
      constructor(...args) {
        super(...args);
        t.workerMade ??= Math.round(performance.now());
        this.addEventListener("message", () => (t.workerDone ??= Math.round(performance.now())));
      }
      postMessage(message, ...rest) {
        if (message?.type === "key") t.firstPost ??= Math.round(performance.now());
        return super.postMessage(message, ...rest);
      }
    };
  const origOpen = XMLHttpRequest.prototype.open;
  XMLHttpRequest.prototype.open = function (...args) {
    if (String(args[1]).includes("socket.io")) t.pollAt ??= Math.round(performance.now());
    return origOpen.apply(this, args);
  };
  new MutationObserver(() => {
    if (document.documentElement?.dataset.hydrated) t.hydrated ??= Math.round(performance.now());
  }).observe(document, { attributes: true, subtree: true, attributeFilter: ["data-hydrated"] });
  window.__traceRead = () => {
    const nav = performance.getEntriesByType("navigation")[0];
    const r = Math.round;
    const resources = performance
      .getEntriesByType("resource")
      .filter((e) => /\.(js|css|woff2?)(\?|$)/.test(e.name))
      .map((e) => `${r(e.startTime)}-${r(e.responseEnd)} ${e.name.replace(/^.*\/_next\/static\//, "").slice(0, 50)} ${e.encodedBodySize}B`);
    const b = window.__bench;
    return {
      html: `${r(nav.requestStart)} req, ${r(nav.responseStart)} first byte, ${r(nav.responseEnd)} last byte, ${r(nav.domInteractive)} domInteractive, ${r(nav.domContentLoadedEventEnd)} DCL, ${r(nav.loadEventEnd)} load`,
      htmlEnd: r(nav.responseEnd),
      opened: b.openedAt && r(b.openedAt),
      fcp: r(performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN),
      previewPaint: b.previewPaint ? r(b.previewPaint.at) : null,
      resources,
      trace: t,
      attachSent: b.attachSentAt && r(b.attachSentAt),
      attachAck: b.attachAckAt && r(b.attachAckAt),
      restoreParsed: b.restore && r(b.restore.parsedAt),
      restoreRendered: b.restore && r(b.restore.renderedAt),
    };
  };
})();
