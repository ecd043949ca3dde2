"use client";
// A tutor's answer as Markdown: GitHub tables and lists, math through KaTeX, highlighted code.
// No raw HTML (it is shown as text), links only to the web or mail, images only from this session's
// own files. KaTeX's CSS and fonts are bundled with the app: nothing loads from elsewhere.
import "katex/dist/katex.min.css";
import "./markdown.css";
import { memo, useDeferredValue, useMemo } from "react";
import ReactMarkdown, { type Components } from "react-markdown";
import rehypeHighlight from "rehype-highlight";
import rehypeKatex from "rehype-katex";
import remarkGfm from "remark-gfm";
import remarkMath from "remark-math";
import { healStreaming, remarkArithmeticStars, safeImageUrl, safeLinkUrl, splitBlocks } from "./markdown";

const remarkPlugins = [remarkGfm, remarkMath, remarkArithmeticStars];
// A formula KaTeX cannot read is shown in red as written, never thrown; \href and friends stay off.
const rehypePlugins = [
  [rehypeKatex, { throwOnError: false, strict: "ignore", trust: false }],
  [rehypeHighlight, { detect: false }],
] as const;

function components(sessionId: string | undefined): Components {
  return {
    a: ({ href, children }) => {
      const safe = href ? safeLinkUrl(href) : null;
      if (!safe) return <span className="md-link-blocked">{children}</span>;
      return (
        <a href={safe} target={safe.startsWith("#") ? undefined : "_blank"} rel="noreferrer noopener">
          {children}
        </a>
      );
    },
    img: ({ src, alt }) => {
      const safe = typeof src === "string" ? safeImageUrl(src, sessionId) : null;
      if (!safe) return <span className="md-image-blocked">[image: {alt || "not shown"}]</span>;
      return <img src={safe} alt={alt ?? ""} className="md-image" loading="lazy" />;
    },
    table: ({ children }) => (
      <div className="md-table">
        <table>{children}</table>
      </div>
    ),
  };
}

/**
 * Memoized per message and per block: a finished message does not render again while the next one
 * streams, and a streaming one renders only its last block again. Under load React may skip
 * intermediate chunks (a deferred value) rather than fall behind.
 */
export const Markdown = memo(function Markdown({
  text,
  sessionId,
  streaming = false,
}: {
  text: string;
  sessionId?: string;
  streaming?: boolean;
}) {
  const source = useDeferredValue(streaming ? healStreaming(text) : text);
  const blocks = useMemo(() => splitBlocks(source), [source]);
  return (
    <div className="markdown">
      {blocks.map((block, i) => (
        <Block key={i} text={block} sessionId={sessionId} />
      ))}
    </div>
  );
});

const Block = memo(function Block({ text, sessionId }: { text: string; sessionId?: string }) {
  const parts = useMemo(() => components(sessionId), [sessionId]);
  return (
    <ReactMarkdown
      remarkPlugins={remarkPlugins}
      rehypePlugins={rehypePlugins as never}
      components={parts}
      // Every address goes through the components above; this only keeps react-markdown's own
      // filter from rewriting the ones they decide on.
      urlTransform={(url) => url}
    >
      {text}
    </ReactMarkdown>
  );
});
