// Who watches which session: terminal and chat viewers of the sessions this server runs, and the
// browser viewers of CLI (tmux) sessions, which share one `tmux attach` pty per session. The
// transport decides how a viewer attaches; nothing here branches on it.
import type { TerminalFrame } from "../transports/pty/terminal-frames.ts";
import type { TerminalSession } from "../transports/pty/terminal-session.ts";
import type { AcpSession } from "../transports/acp/acp-session.ts";
import type { AcpEventRecord } from "../transports/acp/acp-events.ts";
import type { ScreenPreview } from "../transports/pty/screen-preview.ts";
import type { LiveTransport } from "../transports/live-transport.ts";
import { startTmuxViewer } from "../transports/tmux/tmux-viewer.ts";
import type { LiveSession } from "./live-registry.ts";
import { SessionError } from "./session-errors.ts";
import { verdictNotice, type SessionView } from "./session-view.ts";
import { sessionFolder, tmuxOptions, viewOf, type SessionContext } from "./session-context.ts";
import type { Reconciler } from "./reconciler.ts";

export class Viewers {
  /** Browser viewers of CLI (tmux) sessions: one `tmux attach` pty per session. */
  private readonly tmuxViewers = new Map<string, { transport: LiveTransport; viewers: Set<string> }>();

  constructor(
    private readonly ctx: SessionContext,
    private readonly reconciler: Reconciler,
  ) {}

  /** A terminal viewer: one replay (or a resume from sinceSeq), then live output. */
  async attachTerminal(sessionId: string, viewerId: string, send: (frame: TerminalFrame) => void, sinceSeq?: number): Promise<SessionView> {
    if (!this.ctx.registry.has(sessionId)) return this.attachTmux(sessionId, viewerId, send, sinceSeq);
    // No await before the viewer is registered: input the page sent right behind its attach request
    // (handled in the same tick) must find it attached.
    const live = this.attachableNow(sessionId) ?? (await this.liveFor(sessionId));
    this.addViewer(live, viewerId);
    if (!(await live.transport.attachTerminal(viewerId, send, sinceSeq))) throw this.wrongTransport(live, viewerId);
    return this.markAttached(sessionId);
  }

  /**
   * A terminal viewer that only types (a reloaded page's early keys' worker, common/study/early-worker.ts):
   * the same session checks, and `terminalFor` accepts its input; the terminal itself does not know it
   * (no output, no flow control, no claim on the size). Only sessions this server runs in a pty.
   */
  async attachTerminalInput(sessionId: string, viewerId: string): Promise<SessionView> {
    const live = this.attachableNow(sessionId) ?? (await this.liveFor(sessionId));
    this.addViewer(live, viewerId);
    if (live.transport.view !== "terminal") throw this.wrongTransport(live, viewerId);
    return this.markAttached(sessionId);
  }

  /** A chat viewer: every stored event after sinceSeq, then each new one. */
  async attachChat(sessionId: string, viewerId: string, send: (event: AcpEventRecord) => void, sinceSeq = 0): Promise<SessionView> {
    const live = await this.liveFor(sessionId);
    this.addViewer(live, viewerId);
    if (!(await live.transport.attachChat(viewerId, send, sinceSeq))) throw this.wrongTransport(live, viewerId);
    return this.markAttached(sessionId);
  }

  detach(sessionId: string, viewerId: string): void {
    const tmuxViewer = this.tmuxViewers.get(sessionId);
    if (tmuxViewer?.viewers.delete(viewerId)) {
      tmuxViewer.transport.detach(viewerId);
      // Nobody watches in the browser: detach tmux's client; the session itself goes on in tmux.
      if (tmuxViewer.viewers.size === 0) this.closeTmuxViewer(sessionId);
      return;
    }
    const live = this.ctx.registry.get(sessionId);
    if (!live || !live.viewers.delete(viewerId)) return;
    live.transport.detach(viewerId);
    if (live.viewers.size === 0) live.lastViewerLeftAt = this.ctx.now();
  }

  /** Input, resize and acks only from a viewer attached to a live terminal of this server. */
  terminalFor(sessionId: string, viewerId: string): TerminalSession | undefined {
    const tmuxViewer = this.tmuxViewers.get(sessionId);
    if (tmuxViewer) return tmuxViewer.viewers.has(viewerId) ? tmuxViewer.transport.terminal() : undefined;
    const live = this.ctx.registry.get(sessionId);
    return live && live.phase === "live" && live.viewers.has(viewerId) ? live.transport.terminal() : undefined;
  }

  /** Prompts, Stop and permission answers only from a viewer attached to a live chat. */
  chatFor(sessionId: string, viewerId: string): AcpSession | undefined {
    const live = this.ctx.registry.get(sessionId);
    return live && live.phase === "live" && live.viewers.has(viewerId) ? live.transport.chat() : undefined;
  }

  /** The visible screen of a live session of this server, for a page's first paint; null when there is none. */
  async screenPreview(sessionId: string): Promise<ScreenPreview | null> {
    const live = this.ctx.registry.get(sessionId);
    if (!live || live.phase !== "live") return null;
    return live.transport.screenPreview();
  }

  closeTmuxViewer(sessionId: string): void {
    const entry = this.tmuxViewers.get(sessionId);
    if (!entry) return;
    this.tmuxViewers.delete(sessionId);
    entry.transport.kill();
    entry.transport.dispose();
  }

  closeAll(): void {
    for (const sessionId of [...this.tmuxViewers.keys()]) this.closeTmuxViewer(sessionId);
  }

  /**
   * "Open in browser" for a CLI session: a pty running `tmux attach` to it, shared by every browser
   * viewer. When tmux goes away the viewer's pty exits and the session is reconciled (tmux-gone).
   */
  private async attachTmux(
    sessionId: string,
    viewerId: string,
    send: (frame: TerminalFrame) => void,
    sinceSeq?: number,
  ): Promise<SessionView> {
    const { ctx } = this;
    const row = await ctx.store.byId(sessionId);
    if (!row || row.transport !== "tmux" || row.endedAt || !row.muxSession) throw await this.notAttachable(sessionId);
    const judged = await this.reconciler.reconcileRow(row);
    if (judged.verdict.kind !== "live-elsewhere" || row.ownerHost !== ctx.self.host) throw await this.notAttachable(sessionId);
    let entry = this.tmuxViewers.get(sessionId);
    if (!entry) {
      const transport = startTmuxViewer(
        row.muxSession,
        tmuxOptions(ctx),
        sessionFolder(ctx, sessionId),
        (c) => ctx.agents.resolveExecutable(c),
        ctx.settings.STUDYLOOP_MIRROR_HEAP_MB,
      );
      entry = { transport, viewers: new Set() };
      this.tmuxViewers.set(sessionId, entry);
      const mine = entry;
      transport.onExit(() => {
        if (this.tmuxViewers.get(sessionId) !== mine) return;
        this.closeTmuxViewer(sessionId);
        // tmux detached us or went away: read the row again to learn which.
        void ctx.store
          .byId(sessionId)
          .then((fresh) => (fresh && !fresh.endedAt ? this.reconciler.reconcileRow(fresh) : undefined))
          .catch((error: unknown) => ctx.log(`Session ${sessionId}: could not check the tmux session: ${String(error)}`));
      });
    }
    entry.viewers.add(viewerId);
    await entry.transport.attachTerminal(viewerId, send, sinceSeq);
    return viewOf(ctx, row);
  }

  private attachableNow(sessionId: string): LiveSession | undefined {
    const live = this.ctx.registry.get(sessionId);
    return live && (live.phase === "live" || live.phase === "starting") ? live : undefined;
  }

  private async liveFor(sessionId: string): Promise<LiveSession> {
    const live = this.ctx.registry.get(sessionId);
    if (!live || (live.phase !== "live" && live.phase !== "starting")) throw await this.notAttachable(sessionId);
    return live;
  }

  private addViewer(live: LiveSession, viewerId: string): void {
    live.viewers.add(viewerId);
    live.attachedOnce = true;
    live.lastViewerLeftAt = null;
  }

  private wrongTransport(live: LiveSession, viewerId: string): SessionError {
    live.viewers.delete(viewerId);
    return new SessionError(
      "wrong-transport",
      `This session is a ${live.transport.view === "chat" ? "chat" : "terminal"} session: reload the page to open it the right way.`,
    );
  }

  private async markAttached(sessionId: string): Promise<SessionView> {
    const row = await this.ctx.store.byId(sessionId);
    if (!row) throw new SessionError("not-found", `There is no session ${sessionId}.`);
    // Only a fact for the next reader: a database fault must not keep a viewer out.
    if (!row.attachedOnce)
      await this.ctx.store.markAttached(sessionId).catch((e: unknown) => this.ctx.log(`Session ${sessionId}: ${String(e)}`));
    return viewOf(this.ctx, row);
  }

  async notAttachable(sessionId: string): Promise<SessionError> {
    const found = await this.reconciler.session(sessionId);
    if (!found) return new SessionError("not-found", `There is no session ${sessionId}.`);
    if (found.view.status === "ended")
      return new SessionError("ended", found.view.explanation ?? "This session has ended.", { session: found.view });
    if (found.view.status === "ending")
      return new SessionError("not-attachable", "This session is ending: reload the page in a moment.", { session: found.view });
    const notice = found.verdict ? verdictNotice(found.verdict, found.view) : null;
    return new SessionError("not-attachable", notice ?? "This session is not running on this server.", { session: found.view });
  }
}
