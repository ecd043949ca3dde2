// The few pages the custom server writes itself, before Next: pairing, and "this device is not
// paired". They are plain HTML with no script at all (a form posts the pairing), so they work under
// the strictest policy and on any phone browser. The site-wide Referrer-Policy (same-origin) keeps the
// token in the address from leaving the site; a stricter no-referrer here would make the browser send
// "Origin: null" with the form, which the Origin check rightly refuses.

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

const STYLE = `
:root { color-scheme: light dark; --bg: #f7f5ef; --panel: #fff; --ink: #1d2025; --muted: #5d636d; --line: #dedad0; --accent: #2f6f5e; --accent-ink: #fff; --danger: #a3262a; }
@media (prefers-color-scheme: dark) { :root { --bg: #15171c; --panel: #1e2128; --ink: #e8e6e1; --muted: #a2a7b0; --line: #333842; --accent: #5cc0a3; --accent-ink: #0e1714; --danger: #ff8a8a; } }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--ink); font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 480px; margin: 0 auto; padding: 1.25rem 1rem; }
.brand { font-weight: 700; font-size: 1.1rem; margin: 0 0 1rem; }
.panel { background: var(--panel); border: 1px solid var(--line); border-radius: 10px; padding: 1rem; }
h1 { font-size: 1.3rem; margin: 0 0 0.5rem; }
label { font-weight: 600; display: block; margin: 0.75rem 0 0.25rem; }
input[type=text] { width: 100%; font: inherit; padding: 0.55rem 0.7rem; border-radius: 8px; border: 1px solid var(--line); background: var(--bg); color: var(--ink); min-height: 44px; }
button, .button { font: inherit; font-weight: 600; margin-top: 1rem; width: 100%; min-height: 48px; border-radius: 8px; border: 1px solid var(--accent); background: var(--accent); color: var(--accent-ink); text-decoration: none; display: inline-flex; align-items: center; justify-content: center; }
.muted { color: var(--muted); font-size: 0.95rem; }
.error { color: var(--danger); font-weight: 600; }
code { overflow-wrap: anywhere; }
a { color: var(--accent); }
`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · StudyLoop</title><style>${STYLE}</style></head>
<body><main><p class="brand">StudyLoop</p><section class="panel">${body}</section></main></body></html>`;
}

export function pairFormPage(opts: { token: string; suggestedName: string; host: string }): string {
  return page(
    "Pair this device",
    `<h1>Pair this device</h1>
<p>This lets this browser use StudyLoop at <code>${escapeHtml(opts.host)}</code>: your study sessions, and the tutor's terminal on that computer.</p>
<form method="post" action="/pair">
<input type="hidden" name="token" value="${escapeHtml(opts.token)}">
<label for="name">Name this device</label>
<input id="name" name="name" type="text" maxlength="60" value="${escapeHtml(opts.suggestedName)}" autocomplete="off">
<p class="muted">It appears under this name on the Devices page, where you can revoke it at any time.</p>
<button type="submit">Pair this device</button>
</form>`,
  );
}

export function alreadyPairedPage(): string {
  return page(
    "Already paired",
    `<h1>This device is already paired</h1><p>Nothing else to do: the pairing link was not used, so it still works for another device.</p>
<a class="button" href="/">Open StudyLoop</a>`,
  );
}

export function refusalPage(title: string, reason: string): string {
  return page(title, `<h1>${escapeHtml(title)}</h1><p class="error">${escapeHtml(reason)}</p>${HOW_TO_PAIR}`);
}

export function notPairedPage(): string {
  return page(
    "Not paired",
    `<h1>This device is not paired</h1>
<p>StudyLoop is open to this network, so each device needs to be paired once before it can see your sessions.</p>
${HOW_TO_PAIR}
<p class="muted">Already paired? A link from another site does not carry your pairing: <a href="/">open StudyLoop directly</a>.</p>`,
  );
}

const HOW_TO_PAIR = `<p class="muted">To pair: open a pairing link printed by <code>studyloop web --lan</code> on the computer running StudyLoop,
or on a device that is already paired choose <strong>Pair a device</strong> on the dashboard and scan the QR code.</p>`;
