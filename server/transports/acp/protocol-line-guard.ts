// Lets only JSON lines through to the ACP connection. An agent that prints anything else on stdout
// (a banner, a log line, broken JSON) is not speaking the protocol: say so instead of guessing.
import { Transform, type TransformCallback } from "node:stream";

export class ProtocolLineGuard extends Transform {
  private pending = "";

  constructor(private readonly onNonProtocol: (line: string) => void) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.pending += chunk.toString("utf8");
    let newline: number;
    while ((newline = this.pending.indexOf("\n")) !== -1) {
      const line = this.pending.slice(0, newline);
      this.pending = this.pending.slice(newline + 1);
      this.check(line);
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    if (this.pending.trim()) this.check(this.pending);
    done();
  }

  private check(line: string): void {
    const trimmed = line.trim();
    if (!trimmed) return;
    try {
      const value: unknown = JSON.parse(trimmed);
      if (value !== null && typeof value === "object" && !Array.isArray(value)) {
        this.push(`${trimmed}\n`);
        return;
      }
    } catch {
      // falls through: not JSON
    }
    this.onNonProtocol(trimmed);
  }
}
