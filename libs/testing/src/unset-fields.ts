import { leaveOutUnsetFields } from '@cpc/contracts';

/** A value as the HTTP API would answer it (unset fields left out), to compare with outputs that print nulls (the CLI). */
export function asApiAnswers<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, leaveOutUnsetFields)) as T;
}
