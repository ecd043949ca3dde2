// A sentence with `commands` in backticks, shown with the commands as code (install hints).
export function InlineCode({ text }: { text: string }) {
  return <>{text.split("`").map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : part))}</>;
}
