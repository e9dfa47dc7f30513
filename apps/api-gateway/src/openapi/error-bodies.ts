import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiProperty, ApiResponse, getSchemaPath } from '@nestjs/swagger';

export class ErrorBody {
  @ApiProperty({ example: 'not found' })
  error: string;
}

export class ValidationIssueBody {
  @ApiProperty({
    example: 'required',
    description:
      'required, unknown_field, invalid_type, invalid_length, out_of_range, invalid_value, invalid_format, ' +
      'invalid_uuid (a malformed UUID, wherever it is sent), invalid_scope (token endpoint), or a domain key such as ' +
      'has_dependents',
  })
  errorKey: string;

  @ApiProperty({ example: 'username is required' })
  message: string;

  @ApiProperty({
    example: 'username',
    description:
      'the parameter that caused the error, as the client sent it: the dotted path of a body field ' +
      '(`schedule.periods[0].limit`), a query parameter in bracket notation (`filter[status]`), a path parameter',
  })
  parameter: string;
}

export class ValidationErrorsBody {
  @ApiProperty({ type: [ValidationIssueBody] })
  errors: ValidationIssueBody[];
}

const DESCRIPTIONS: Record<number, string> = {
  400: 'Malformed request',
  401: 'Missing, invalid or expired token',
  403: 'Valid token, permission missing',
  404: 'Not found',
  405: 'Method not allowed',
  413: 'Request body too large',
  415: 'Unsupported content type',
  422: 'Request validation failed',
  429: 'Too many requests',
  503: 'A backing service is unavailable',
};

/**
 * Documents error responses: `validationStatus` (422, or 400 on the token endpoint) with the validation body, the rest
 * `{error}`. A 400 can also be a malformed body, so it documents both shapes.
 */
export function ApiErrorResponses(statuses: number[], validationStatus = 422) {
  const schemaFor = (status: number) => {
    if (status !== validationStatus) return { $ref: getSchemaPath(ErrorBody) };
    if (status === 400)
      return { oneOf: [{ $ref: getSchemaPath(ValidationErrorsBody) }, { $ref: getSchemaPath(ErrorBody) }] };
    return { $ref: getSchemaPath(ValidationErrorsBody) };
  };
  return applyDecorators(
    ApiExtraModels(ErrorBody, ValidationErrorsBody),
    ...statuses.map((status) =>
      ApiResponse({ status, description: DESCRIPTIONS[status], schema: schemaFor(status) }),
    ),
  );
}

/** The errors every authenticated route can answer. */
export const STANDARD_ERROR_STATUSES = [401, 403, 404, 405, 422, 429, 503];

/** What a route whose method carries a body adds: malformed JSON (400), too large (413), not JSON (415). */
export const BODY_ERROR_STATUSES = [400, 413, 415];
