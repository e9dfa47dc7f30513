import WebSocket from 'ws';

/** The line Node writes to stderr when its inspector starts listening (after SIGUSR1). */
const LISTENING = /Debugger listening on (ws:\/\/\S+)/;

/**
 * The heap a Node process really retains: read through its inspector right after a full garbage collection, so the
 * garbage a plain reading (process.memoryUsage, /metrics) counts until the collector's next major run is left out.
 * The process must have been started with `--inspect-port=0` (the bench's platform is), so that SIGUSR1 opens its
 * inspector on a free port of 127.0.0.1; its stderr, read through `outputLines`, says which.
 */
export class HeapAfterGc {
  private nextId = 0;
  private readonly pending = new Map<
    number,
    { resolve: (result: unknown) => void; reject: (e: Error) => void }
  >();

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString()) as {
        id?: number;
        result?: unknown;
        error?: { message: string };
      };
      const waiting = message.id === undefined ? undefined : this.pending.get(message.id);
      if (!waiting) return;
      this.pending.delete(message.id!);
      if (message.error) waiting.reject(new Error(message.error.message));
      else waiting.resolve(message.result);
    });
    socket.on('close', () => {
      for (const waiting of this.pending.values()) waiting.reject(new Error('inspector closed'));
      this.pending.clear();
    });
  }

  /**
   * Opens the inspector of `pid` (SIGUSR1) and connects to it; rejects when its output does not say where within
   * timeoutMs. Its inspector is opened once: the newest such line of its output is the one.
   */
  static async open(pid: number, outputLines: () => string[], timeoutMs = 10_000): Promise<HeapAfterGc> {
    process.kill(pid, 'SIGUSR1');
    const deadline = performance.now() + timeoutMs;
    let url: string | undefined;
    for (;;) {
      url = outputLines()
        .map((line) => LISTENING.exec(line)?.[1])
        .findLast(Boolean);
      if (url) break;
      if (performance.now() > deadline)
        throw new Error(`process ${pid} opened no inspector (--inspect-port=0?)`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const socket = new WebSocket(url);
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    return new HeapAfterGc(socket);
  }

  /** Bytes of heap in use once a full collection has run. */
  async usedBytes(): Promise<number> {
    await this.call('HeapProfiler.collectGarbage');
    const { result } = (await this.call('Runtime.evaluate', {
      expression: 'process.memoryUsage().heapUsed',
      returnByValue: true,
    })) as { result: { value: number } };
    return result.value;
  }

  close(): void {
    this.socket.close();
  }

  private call(method: string, params: object = {}): Promise<unknown> {
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }
}
