import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { findFreePort } from '@cpc/platform-launcher';

const repositoryRoot = fileURLToPath(new URL('../../..', import.meta.url));

/** One request or response Prism found at odds with the document (its `sl-violations` header). */
export interface PrismViolation {
  location: string[];
  severity: string;
  code: string | number;
  message: string;
}

/** A running Prism validation proxy. */
export interface PrismProxy {
  /** http://127.0.0.1:<port>: send the API's requests here instead of to the API. */
  url: string;
  /** What Prism printed, for a failing test's message. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Stoplight Prism in validation-proxy mode (`prism proxy --errors`) in front of `upstream`: it forwards every request
 * and checks it and its answer against the committed OpenAPI document; a violation turns the answer into 422 (the
 * request) or 500 (the response), with the findings in the `sl-violations` header and the body.
 */
export async function startPrismProxy(
  upstream: string,
  document = `${repositoryRoot}docs/openapi.json`,
): Promise<PrismProxy> {
  const port = await findFreePort();
  const lines: string[] = [];
  const child: ChildProcess = spawn(
    process.execPath,
    [
      `${repositoryRoot}node_modules/@stoplight/prism-cli/dist/index.js`,
      ...['proxy', document, upstream, '--errors', '--host', '127.0.0.1', '--port', String(port)],
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, SCARF_ANALYTICS: 'false' } },
  );
  const listening = new Promise<void>((resolve, reject) => {
    const take = (chunk: Buffer) => {
      lines.push(chunk.toString('utf8'));
      if (chunk.toString('utf8').includes('Prism is listening')) resolve();
    };
    child.stdout?.on('data', take);
    child.stderr?.on('data', take);
    child.once('exit', (code) => reject(new Error(`prism exited with ${code}:\n${lines.join('')}`)));
  });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`prism did not listen within 60 s:\n${lines.join('')}`)),
      60000,
    );
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
  };
  try {
    await Promise.race([listening, timeout]);
  } catch (error) {
    await stop();
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return { url: `http://127.0.0.1:${port}`, output: () => lines.join(''), stop };
}
