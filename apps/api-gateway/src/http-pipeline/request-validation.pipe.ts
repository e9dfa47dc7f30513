import { type ArgumentMetadata, Injectable, type PipeTransform, ValidationPipe } from '@nestjs/common';
import { ValidationFailedError } from '@cpc/errors';
import { MAX_BODY_DEPTH, nestsDeeperThan } from './body-depth.js';
import { type ParameterNotation, toValidationIssues } from './validation-issues.js';

/**
 * The global pipe: bodies, queries and paths are checked against their DTO classes; unknown fields are refused; every
 * problem becomes one 422 item. A body that is not a JSON object at all is one problem too.
 */
@Injectable()
export class RequestValidationPipe implements PipeTransform {
  private readonly validation = RequestValidationPipe.validationPipe('body');
  /** Queries name their parameters as the client sent them: `filter[status]`. */
  private readonly queryValidation = RequestValidationPipe.validationPipe('query');

  private static validationPipe(notation: ParameterNotation): ValidationPipe {
    return new ValidationPipe({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      validationError: { target: false, value: true },
      exceptionFactory: (errors) => new ValidationFailedError(toValidationIssues(errors, notation)),
    });
  }

  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const hasDto =
      metadata.metatype && ![Object, String, Number, Boolean, Array].includes(metadata.metatype as never);
    if (hasDto && metadata.type === 'body') {
      const body = value ?? {};
      if (typeof body !== 'object' || Array.isArray(body)) {
        throw ValidationFailedError.single('body', 'invalid_type', 'the request body must be a JSON object');
      }
      if (nestsDeeperThan(body, MAX_BODY_DEPTH)) throw bodyTooDeep();
      return this.validation.transform(body, metadata);
    }
    if (metadata.type === 'query') return this.queryValidation.transform(value, metadata);
    return this.validation.transform(value, metadata);
  }
}

function bodyTooDeep(): ValidationFailedError {
  return ValidationFailedError.single(
    'body',
    'invalid_format',
    `the request body must not nest objects and arrays more than ${MAX_BODY_DEPTH} levels deep`,
  );
}
