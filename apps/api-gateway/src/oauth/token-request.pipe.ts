import { Injectable, type PipeTransform } from '@nestjs/common';
import type { ValidationIssue } from '@cpc/contracts';
import { InvalidTokenRequestError } from '@cpc/errors';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { MAX_BODY_DEPTH, nestsDeeperThan } from '../http-pipeline/body-depth.js';
import { toValidationIssues } from '../http-pipeline/validation-issues.js';
import type { RawTokenRequestParts } from './raw-token-request.decorator.js';
import { TokenRequestDto } from './token-request.dto.js';

const BASIC_SCHEME = /^basic\s+([A-Za-z0-9+/=]+)\s*$/i;

/** RFC 6749 §2.3.1: client_id and client_secret are form-encoded before they are joined and base64-encoded. */
function formDecoded(value: string): string | null {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

/** The client credentials of an `Authorization: Basic` header; null when it is not one, 'malformed' when broken. */
export function basicCredentials(
  authorization: string | undefined,
): { clientId: string; clientSecret: string } | null | 'malformed' {
  if (authorization === undefined || !/^basic(\s|$)/i.test(authorization)) return null;
  const encoded = BASIC_SCHEME.exec(authorization)?.[1];
  const decoded = encoded === undefined ? '' : Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return 'malformed';
  const clientId = formDecoded(decoded.slice(0, colon));
  const clientSecret = formDecoded(decoded.slice(colon + 1));
  return clientId === null || clientSecret === null ? 'malformed' : { clientId, clientSecret };
}

const issue = (parameter: string, errorKey: string, message: string): ValidationIssue => ({
  errorKey,
  message,
  parameter,
});

/**
 * The token endpoint answers bad input with 400 (OAuth 2.0 and the spec's table), not the 422 of other routes, so it
 * validates its body here rather than through the global pipe. Unknown fields are dropped, not refused (RFC 6749
 * §3.2: the endpoint ignores parameters it does not know), on this endpoint only. With client_credentials, HTTP Basic
 * credentials become client_id and client_secret; both ways at once is refused (RFC 6749 §2.3).
 */
@Injectable()
export class TokenRequestPipe implements PipeTransform<RawTokenRequestParts, Promise<TokenRequestDto>> {
  async transform({ body: raw, authorization }: RawTokenRequestParts): Promise<TokenRequestDto> {
    const body = raw ?? {};
    if (typeof body !== 'object' || Array.isArray(body)) {
      throw new InvalidTokenRequestError([
        issue('body', 'invalid_type', 'the request body must be an object'),
      ]);
    }
    if (nestsDeeperThan(body, MAX_BODY_DEPTH)) {
      throw new InvalidTokenRequestError([
        issue(
          'body',
          'invalid_format',
          `the request body must not nest more than ${MAX_BODY_DEPTH} levels deep`,
        ),
      ]);
    }
    const fields = { ...(body as Record<string, unknown>) };
    const basic = fields.grant_type === 'client_credentials' ? basicCredentials(authorization) : null;
    if (basic === 'malformed') {
      throw new InvalidTokenRequestError([
        issue(
          'Authorization',
          'invalid_format',
          'Authorization must be Basic base64(client_id:client_secret), each form-encoded',
        ),
      ]);
    }
    if (basic !== null) {
      if (fields.client_id !== undefined || fields.client_secret !== undefined) {
        throw new InvalidTokenRequestError([
          issue(
            'client_id',
            'invalid_value',
            'client credentials go in the Authorization header or in the body, not in both',
          ),
        ]);
      }
      fields.client_id = basic.clientId;
      fields.client_secret = basic.clientSecret;
    }
    const request = plainToInstance(TokenRequestDto, fields);
    const errors = await validate(request, { whitelist: true, forbidNonWhitelisted: false });
    if (errors.length > 0) throw new InvalidTokenRequestError(toValidationIssues(errors));
    return request;
  }
}
