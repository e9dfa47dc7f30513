/**
 * Runs `task` every `everyMs` until the returned function is called: upkeep (sweeps, partitions) that must not keep
 * the process alive or take it down. A failed run is handed to `onError`; the next run comes all the same.
 */
export function repeatInBackground(options: {
  everyMs: number;
  task: () => Promise<unknown>;
  onError: (error: unknown) => void;
}): () => void {
  const timer = setInterval(() => {
    options.task().catch(options.onError);
  }, options.everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
