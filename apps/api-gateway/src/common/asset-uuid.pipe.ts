import { Injectable, type PipeTransform } from '@nestjs/common';
import { invalidUuidIssue, UUID_PATTERN } from '@cpc/contracts';
import { ValidationFailedError } from '@cpc/errors';

/** The spec's sensor uuid: a version-4 UUID in lower-case hexadecimal. */
export const LOWER_CASE_UUID_V4_PATTERN =
  /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function invalidUuid(message: string): ValidationFailedError {
  return new ValidationFailedError([invalidUuidIssue('uuid', message)]);
}

/** The `{uuid}` path parameter of locations, controllers and plugs: a UUID, or 422 on `uuid`. */
@Injectable()
export class AssetUuidPipe implements PipeTransform<unknown, string> {
  transform(value: unknown): string {
    if (typeof value !== 'string' || !UUID_PATTERN.test(value)) throw invalidUuid('uuid must be a UUID');
    return value.toLowerCase();
  }
}

/** The `{uuid}` path parameter of sensor deletes, as the spec fixes it: a lower-case version-4 UUID, or 422 on `uuid`. */
@Injectable()
export class SensorUuidPipe implements PipeTransform<unknown, string> {
  transform(value: unknown): string {
    if (typeof value !== 'string' || !LOWER_CASE_UUID_V4_PATTERN.test(value)) {
      throw invalidUuid('uuid must be a version-4 UUID in lower-case hexadecimal');
    }
    return value;
  }
}
