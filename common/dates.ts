// Dates as the pages write them (en-GB), through one Intl.DateTimeFormat per set of options:
// `toLocaleString(locale, options)` builds a new formatter on every call (~1 ms each on this machine),
// which made a list's render grow with its rows (500 parked thoughts, 50 sessions, 84 heatmap days).
// A formatter keeps the time zone it was made in, as the page's own clock does.
const formatters = new Map<string, Intl.DateTimeFormat>();

export function formatDate(value: Date | string | number, options: Intl.DateTimeFormatOptions): string {
  const key = JSON.stringify(options);
  let formatter = formatters.get(key);
  if (!formatter) formatters.set(key, (formatter = new Intl.DateTimeFormat("en-GB", options)));
  return formatter.format(value instanceof Date ? value : new Date(value));
}

/** "1 Dec 2026, 21:30": a session's or a thought's moment. */
export const dateTimeText = (value: Date | string | number) => formatDate(value, { dateStyle: "medium", timeStyle: "short" });
