// Renders the tree from markdown.ts as React elements: text is always text.
import { Fragment } from "react";
import { parseMarkdown, type Inline } from "./markdown";

export function Markdown({ text }: { text: string }) {
  return (
    <div className="markdown">
      {parseMarkdown(text).map((block, i) => {
        switch (block.t) {
          case "p":
            return <p key={i}>{inline(block.c)}</p>;
          case "h":
            return <p key={i} className={`md-h md-h${block.level}`}><strong>{inline(block.c)}</strong></p>;
          case "ul":
            return <ul key={i}>{block.items.map((item, j) => <li key={j}>{inline(item)}</li>)}</ul>;
          case "ol":
            return <ol key={i}>{block.items.map((item, j) => <li key={j}>{inline(item)}</li>)}</ol>;
          case "pre":
            return <pre key={i}><code>{block.v}</code></pre>;
        }
      })}
    </div>
  );
}

function inline(nodes: Inline[]): React.ReactNode {
  return nodes.map((n, i) => {
    switch (n.t) {
      case "text":
        return <Fragment key={i}>{n.v}</Fragment>;
      case "strong":
        return <strong key={i}>{inline(n.c)}</strong>;
      case "em":
        return <em key={i}>{inline(n.c)}</em>;
      case "code":
        return <code key={i}>{n.v}</code>;
      case "link":
        return <a key={i} href={n.href} target="_blank" rel="noreferrer noopener">{inline(n.c)}</a>;
    }
  });
}
