import { type ArgumentMetadata, Injectable, type PipeTransform, ValidationPipe } from '@nestjs/common';
import { ValidationFailedError } from '@cpc/errors';
import { toValidationIssues } from './validation-issues.js';

/**
 * The global pipe: bodies, queries and paths are checked against their DTO classes; unknown fields are refused; every
 * problem becomes one 422 item. A body that is not a JSON object at all is one problem too.
 */
@Injectable()
export class RequestValidationPipe implements PipeTransform {
  private readonly validation = new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    validationError: { target: false, value: true },
    exceptionFactory: (errors) => new ValidationFailedError(toValidationIssues(errors)),
  });

  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const hasDto =
      metadata.metatype && ![Object, String, Number, Boolean, Array].includes(metadata.metatype as never);
    if (hasDto && metadata.type === 'body') {
      const body = value ?? {};
      if (typeof body !== 'object' || Array.isArray(body)) {
        throw ValidationFailedError.single('body', 'invalid_type', 'the request body must be a JSON object');
      }
      return this.validation.transform(body, metadata);
    }
    return this.validation.transform(value, metadata);
  }
}
