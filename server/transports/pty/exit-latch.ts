// A process's exit, seen once: listeners added before it fire with it; a listener added after it
// fires on the next microtask with the same event (so callers need not ask "has it exited yet?").

/** A subscription: dispose() stops listening. pty-process.ts hands these out for its output and exit too. */
export interface Disposable {
  dispose(): void;
}

export class ExitLatch<T> {
  private event: T | undefined;
  private readonly listeners = new Set<(event: T) => void>();

  /** The exit, once it happened. */
  get value(): T | undefined {
    return this.event;
  }

  on(listener: (event: T) => void): Disposable {
    const event = this.event;
    if (event !== undefined) {
      let disposed = false;
      queueMicrotask(() => {
        if (!disposed) listener(event);
      });
      return { dispose: () => (disposed = true) };
    }
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Records the exit (the first one only) and calls the listeners; false if it had already fired. */
  fire(event: T, notify = true): boolean {
    if (this.event !== undefined) return false;
    this.event = event;
    const listeners = [...this.listeners];
    this.listeners.clear();
    if (notify) for (const listener of listeners) listener(event);
    return true;
  }

  clear(): void {
    this.listeners.clear();
  }
}
