import type { ValidationIssue } from './types';

/** An answer of the API that is not a success, with its body in the spec's shapes (`{error}` or `{errors: [...]}`). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    /** From `Retry-After` (429, 503), in seconds. */
    readonly retryAfterSeconds?: number,
  ) {
    super(describeAnswer(status, body, retryAfterSeconds));
    this.name = 'ApiError';
  }

  /** The API's own sentence (`error`), if the body has one. */
  get apiMessage(): string | undefined {
    const error = (this.body as { error?: unknown } | null)?.error;
    return typeof error === 'string' ? error : undefined;
  }

  /** The items of a validation-errors body (422; 400 on the token endpoint). */
  get issues(): ValidationIssue[] {
    const errors = (this.body as { errors?: unknown } | null)?.errors;
    return Array.isArray(errors) ? (errors as ValidationIssue[]) : [];
  }

  /**
   * The validation messages by the field they name (`parameter`: `name`, `parameters.id_tag`, ...), for showing them
   * beside the fields; several problems of one field are joined.
   */
  fieldErrors(): Record<string, string> {
    const byField: Record<string, string> = {};
    for (const issue of this.issues) {
      const key = issue.parameter || 'body';
      byField[key] = byField[key] ? `${byField[key]}; ${issue.message}` : issue.message;
    }
    return byField;
  }
}

/** The platform could not be reached at all (no answer, a broken connection, a body that is not JSON). */
export class NetworkError extends Error {
  constructor(cause: unknown) {
    super(
      'The platform cannot be reached. Check the network connection; the console keeps retrying on its own.',
      { cause },
    );
    this.name = 'NetworkError';
  }
}

function describeIssues(issues: ValidationIssue[]): string {
  return issues
    .map((issue) => (issue.parameter ? `${issue.parameter}: ${issue.message}` : issue.message))
    .join('; ');
}

/** Every answer in words: what happened and what to do, with the API's own sentence where it gave one. */
export function describeAnswer(status: number, body: unknown, retryAfterSeconds?: number): string {
  const error = (body as { error?: unknown } | null)?.error;
  const said = typeof error === 'string' ? ` (${error})` : '';
  const errors = (body as { errors?: unknown } | null)?.errors;
  if (Array.isArray(errors) && errors.length > 0) {
    return `The request was refused: ${describeIssues(errors as ValidationIssue[])}.`;
  }
  const retry =
    retryAfterSeconds !== undefined ? ` Try again in ${retryAfterSeconds} s.` : ' Try again shortly.';
  switch (status) {
    case 400:
      return `The request was malformed${said}.`;
    case 401:
      return `You are not signed in or your session has ended${said}. Sign in again.`;
    case 403:
      return `Your role does not allow this${said}.`;
    case 404:
      return `Not found: it does not exist or was deleted${said}.`;
    case 405:
      return `The API does not offer this operation${said}.`;
    case 409:
      return `This conflicts with the current state${said}.`;
    case 413:
      return `The request is too large${said}.`;
    case 429:
      return `Too many requests${said}.${retry}`;
    case 503:
      return `A part of the platform is unavailable right now${said}.${retry}`;
    default:
      return status >= 500
        ? `The platform failed to answer (status ${status}${said ? `,${said.slice(1, -1)}` : ''}).${retry}`
        : `The request failed with status ${status}${said}.`;
  }
}

/** Any error the console meets, in words. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError || error instanceof NetworkError) return error.message;
  if (error instanceof Error) return `Something went wrong in the console: ${error.message}`;
  return 'Something went wrong in the console.';
}

/**
 * The validation messages of a 422 by the form field they belong to, the first part of `parameter`: `permissions.3`
 * and `event_types.0` belong to the list's field; items that `skip` says belong to no field are left out.
 */
export function errorsByTopField(
  error: unknown,
  skip: (issue: ValidationIssue) => boolean = () => false,
): Record<string, string> {
  if (!(error instanceof ApiError)) return {};
  const byField: Record<string, string> = {};
  for (const issue of error.issues) {
    if (skip(issue)) continue;
    const field = (issue.parameter || 'body').split(/[.[]/)[0];
    byField[field] = byField[field] ? `${byField[field]}; ${issue.message}` : issue.message;
  }
  return byField;
}
