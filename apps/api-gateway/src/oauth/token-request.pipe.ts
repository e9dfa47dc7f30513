import { Injectable, type PipeTransform } from '@nestjs/common';
import { ErrorCode } from '@cpc/contracts';
import { DomainError } from '@cpc/errors';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { toValidationIssues } from '../http-pipeline/validation-issues.js';
import { TokenRequestDto } from './token-request.dto.js';

/**
 * The token endpoint answers bad input with 400 (OAuth 2.0 and the spec's table), not the 422 of other routes, so it
 * validates its body here rather than through the global pipe.
 */
@Injectable()
export class TokenRequestPipe implements PipeTransform<unknown, Promise<TokenRequestDto>> {
  async transform(value: unknown): Promise<TokenRequestDto> {
    const body = value ?? {};
    if (typeof body !== 'object' || Array.isArray(body)) {
      throw new DomainError(ErrorCode.InvalidRequest, 'invalid token request', [
        { errorKey: 'invalid_type', message: 'the request body must be an object', parameter: 'body' },
      ]);
    }
    const request = plainToInstance(TokenRequestDto, body);
    const errors = await validate(request, {
      whitelist: true,
      forbidNonWhitelisted: true,
    });
    if (errors.length > 0)
      throw new DomainError(ErrorCode.InvalidRequest, 'invalid token request', toValidationIssues(errors));
    return request;
  }
}
