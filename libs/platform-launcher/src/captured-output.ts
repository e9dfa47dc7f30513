export type OutputStream = 'stdout' | 'stderr';

/** Receives each complete line a child prints (without the newline). */
export type LineListener = (line: string, stream: OutputStream) => void;

export interface CapturedOutputOptions {
  /** How many of the most recent lines are kept (default 2000). */
  maxLines?: number;
  /** Also hands every line to this listener, e.g. to print it with a prefix. */
  onLine?: LineListener;
}

/**
 * Collects a child's stdout and stderr as lines: the last `maxLines` are kept for `text()`/`tail()` (error messages,
 * test assertions), and each line can be passed on as it arrives. A line split across chunks is joined first.
 */
export class CapturedOutput {
  private readonly lines: string[] = [];
  private readonly partial: Record<OutputStream, string> = { stdout: '', stderr: '' };
  private readonly maxLines: number;

  constructor(private readonly options: CapturedOutputOptions = {}) {
    this.maxLines = options.maxLines ?? 2000;
  }

  write(chunk: Buffer | string, stream: OutputStream): void {
    const pieces = (this.partial[stream] + chunk.toString()).split('\n');
    this.partial[stream] = pieces.pop() ?? '';
    for (const line of pieces) this.push(line.replace(/\r$/, ''), stream);
  }

  /** Emits what is left of unterminated lines (the child has exited). */
  flush(): void {
    for (const stream of ['stdout', 'stderr'] as const) {
      if (this.partial[stream] !== '') this.push(this.partial[stream], stream);
      this.partial[stream] = '';
    }
  }

  /** A note from the launcher itself (start, exit), kept in order with the child's lines. */
  note(line: string): void {
    this.push(line, 'stderr');
  }

  text(): string {
    return this.lines.join('\n');
  }

  tail(count: number): string {
    return this.lines.slice(-count).join('\n');
  }

  private push(line: string, stream: OutputStream): void {
    this.lines.push(line);
    if (this.lines.length > this.maxLines) this.lines.splice(0, this.lines.length - this.maxLines);
    this.options.onLine?.(line, stream);
  }
}

/** A LineListener that prints each line with `[name] ` in front, stdout lines to `out`, stderr lines to `err`. */
export function prefixedLineWriter(
  prefix: string,
  out: NodeJS.WritableStream = process.stdout,
  err: NodeJS.WritableStream = process.stderr,
): LineListener {
  return (line, stream) => {
    (stream === 'stderr' ? err : out).write(`${prefix}${line}\n`);
  };
}
