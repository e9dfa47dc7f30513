/**
 * Whether a command step held its rate (issue 24's step run): every POST answered 201, every command ended
 * `accepted` and its call reached its charge point, and p99 POST → received under HELD_P99_MS. The bench reports the
 * highest rate held.
 */
export const HELD_P99_MS = 1000;

/** What the verdict reads of a step (CommandStepResult). */
export interface StepFigures {
  targetPerSecond: number;
  created: number;
  refused: number;
  skipped: number;
  terminal: number;
  byStatus: Record<string, number>;
  received: number;
  postToReceivedMs: { p99: number | null };
}

export interface StepVerdict {
  held: boolean;
  /** Why not, in words; empty when held. */
  shortfalls: string[];
}

export function verdictOf(step: StepFigures): StepVerdict {
  const shortfalls: string[] = [];
  if (step.refused > 0) shortfalls.push(`${step.refused} POSTs refused`);
  if (step.skipped > 0) shortfalls.push(`${step.skipped} POSTs not sent (two seconds' worth unanswered)`);
  if (step.terminal < step.created) shortfalls.push(`${step.created - step.terminal} commands never ended`);
  const otherwise = Object.entries(step.byStatus).filter(
    ([status, count]) => status !== 'accepted' && count > 0,
  );
  if (otherwise.length > 0)
    shortfalls.push(
      `ended otherwise: ${otherwise.map(([status, count]) => `${count} ${status}`).join(', ')}`,
    );
  if (step.received < step.created) shortfalls.push(`${step.created - step.received} calls never received`);
  const p99 = step.postToReceivedMs.p99;
  if (p99 === null || p99 >= HELD_P99_MS)
    shortfalls.push(`p99 POST → received ${p99 === null ? 'unknown' : `${p99} ms`} (≥ ${HELD_P99_MS} ms)`);
  return { held: shortfalls.length === 0, shortfalls };
}

/** The highest offered rate among the steps that held, or null when none did. */
export function highestRateHeld(steps: readonly StepFigures[]): number | null {
  const held = steps.filter((step) => verdictOf(step).held).map((step) => step.targetPerSecond);
  return held.length === 0 ? null : Math.max(...held);
}
