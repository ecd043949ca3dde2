// The rules around the Markdown renderer (react-markdown): which addresses a tutor's answer may link
// to or show, how a half-streamed answer is healed, and arithmetic stars that are not emphasis.
// Pure and browser-safe: the chat, the transcript and the tests share it.
import remarkGfm from "remark-gfm";
import remarkMath from "remark-math";
import remarkParse from "remark-parse";
import remend from "remend";
import { unified } from "unified";

/** Links open only on the web or in a mail program: no javascript:, data:, file: or app schemes. */
const LINK_PROTOCOLS = new Set(["http:", "https:", "mailto:"]);

/** Where a session's own files are served (the attachments the learner sent in this chat). */
export function attachmentUrl(sessionId: string, name: string): string {
  return `/api/sessions/${encodeURIComponent(sessionId)}/attachments/${encodeURIComponent(name)}`;
}

/** An attachment's stored name: what the upload route writes (see server/transports/acp/attachments.ts). */
export const ATTACHMENT_NAME = /^[a-z0-9][a-z0-9._-]{0,120}$/;

/** The address a link may open, or null (shown as plain text). */
export function safeLinkUrl(url: string): string | null {
  const trimmed = url.trim();
  if (trimmed.startsWith("#")) return trimmed;
  try {
    const parsed = new URL(trimmed);
    return LINK_PROTOCOLS.has(parsed.protocol) ? parsed.href : null;
  } catch {
    return null; // a relative address means nothing outside the agent's folder
  }
}

/**
 * The address an image may load from, or null. Only this session's own files: an attachment by its
 * address (`/api/sessions/<id>/attachments/<name>`) or by its path in the session folder
 * (`attachments/<name>`). Anything else would let an answer fetch from elsewhere.
 */
export function safeImageUrl(url: string, sessionId: string | undefined): string | null {
  if (!sessionId) return null;
  const trimmed = url.trim().replace(/^\.\//, "");
  const relative = /^attachments\/([^/?#]+)$/.exec(trimmed);
  if (relative && ATTACHMENT_NAME.test(relative[1]!)) return attachmentUrl(sessionId, relative[1]!);
  const prefix = attachmentUrl(sessionId, "");
  if (trimmed.startsWith(prefix)) {
    const name = decodeURIComponent(trimmed.slice(prefix.length));
    if (ATTACHMENT_NAME.test(name)) return attachmentUrl(sessionId, name);
  }
  return null;
}

/**
 * A half-streamed answer, closed so it renders as it will when complete: an open `**bold`, `` `code ``
 * or `$$` block is closed instead of flashing as raw marks. Inline `$` stays open (it may be a price).
 */
export function healStreaming(text: string): string {
  return remend(text, { inlineKatex: false, linkMode: "text-only" });
}

const blockParser = unified().use(remarkParse).use(remarkGfm).use(remarkMath);

/**
 * An answer cut into its top-level blocks (paragraphs, lists, tables, code, math), each a slice of the
 * source. Each renders and is memoized on its own, so while an answer streams only its last block is
 * parsed, typeset and highlighted again. Link definitions and footnotes reach across blocks: an
 * answer with any stays whole.
 */
export function splitBlocks(text: string): string[] {
  const tree = blockParser.parse(text);
  if (tree.children.some((n) => n.type === "definition" || n.type === "footnoteDefinition")) return [text];
  const blocks: string[] = [];
  for (const node of tree.children) {
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    if (start === undefined || end === undefined) return [text];
    blocks.push(text.slice(start, end));
  }
  return blocks;
}

// ---- stars between digits or letters are arithmetic, not emphasis ----------------------------------

interface MdNode {
  type: string;
  value?: string;
  children?: MdNode[];
  position?: { start: { offset?: number }; end: { offset?: number } };
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

/**
 * CommonMark reads `2*3*4` as 2<em>3</em>4 and `x*y + y*z` as x<em>y + y</em>z. A tutor means
 * arithmetic there: emphasis whose stars touch a letter or digit on both outer sides goes back to text.
 * (`_` inside words is never emphasis in CommonMark, so `my_var_name` needs nothing.)
 */
export function remarkArithmeticStars() {
  return (tree: MdNode, file: { value: unknown }) => {
    const source = String(file.value ?? "");
    unwrapIntraword(tree, source);
  };
}

function unwrapIntraword(node: MdNode, source: string): void {
  if (!node.children) return;
  const out: MdNode[] = [];
  for (const child of node.children) {
    unwrapIntraword(child, source);
    if ((child.type === "emphasis" || child.type === "strong") && isIntraword(child, source)) {
      const start = child.position!.start.offset!;
      const end = child.position!.end.offset!;
      const marks = child.type === "strong" ? 2 : 1;
      const open = source.slice(start, start + marks);
      const close = source.slice(end - marks, end);
      if (open.startsWith("*")) {
        out.push({ type: "text", value: open }, ...(child.children ?? []), { type: "text", value: close });
        continue;
      }
    }
    out.push(child);
  }
  node.children = mergeText(out);
}

function isIntraword(node: MdNode, source: string): boolean {
  const start = node.position?.start.offset;
  const end = node.position?.end.offset;
  if (start === undefined || end === undefined || start === 0 || end >= source.length) return false;
  return WORD_CHAR.test(source[start - 1]!) && WORD_CHAR.test(source[end]!);
}

/** Adjacent text nodes joined, so `2`, `*`, `3`, `*`, `4` read as one text again. */
function mergeText(nodes: MdNode[]): MdNode[] {
  const out: MdNode[] = [];
  for (const node of nodes) {
    const last = out[out.length - 1];
    if (node.type === "text" && last?.type === "text")
      out[out.length - 1] = { type: "text", value: (last.value ?? "") + (node.value ?? "") };
    else out.push(node);
  }
  return out;
}
