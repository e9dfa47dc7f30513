import 'reflect-metadata';
import type { DomainError } from '@cpc/errors';
import { Type } from 'class-transformer';
import { IsIn, ValidateNested } from 'class-validator';
import { AssetUuidPipe, SensorUuidPipe } from '../common/asset-uuid.pipe.js';
import { IsUuidString, OptionalField } from '../common/dto-decorators.js';
import { RequestValidationPipe } from './request-validation.pipe.js';

class Filter {
  @OptionalField() @IsIn(['open', 'closed']) status?: string;
  @OptionalField() @IsUuidString() location_uuid?: string;
}

class ListQuery {
  @OptionalField() @ValidateNested() @Type(() => Filter) filter?: Filter;
}

class Parent {
  @IsUuidString() uuid: string;
}

class Body {
  @IsUuidString() location_uuid: string;
  @OptionalField() @IsUuidString({ each: true }) allowed_location_uuids?: string[];
  @OptionalField() @ValidateNested() @Type(() => Parent) parent?: Parent;
}

async function issuesOf(run: () => unknown) {
  try {
    await run();
  } catch (error) {
    return (error as DomainError).issues;
  }
  throw new Error('not refused');
}

/** Issue 25: filters named as sent (`filter[status]`), and one errorKey for a malformed UUID wherever it is. */
describe('RequestValidationPipe', () => {
  const pipe = new RequestValidationPipe();
  const query = (value: unknown) => pipe.transform(value, { type: 'query', metatype: ListQuery });
  const body = (value: unknown) => pipe.transform(value, { type: 'body', metatype: Body });

  it('names query parameters as the client sent them, in bracket notation', async () => {
    expect(await issuesOf(() => query({ filter: { status: 'done', colour: 'red' } }))).toEqual([
      {
        parameter: 'filter[colour]',
        errorKey: 'unknown_field',
        message: 'filter[colour] is not a known field',
      },
      { parameter: 'filter[status]', errorKey: 'invalid_value', message: expect.any(String) },
    ]);
  });

  it('answers a malformed UUID with invalid_uuid in a query, a body (at any depth) and a path', async () => {
    expect(await issuesOf(() => query({ filter: { location_uuid: 'x' } }))).toEqual([
      { parameter: 'filter[location_uuid]', errorKey: 'invalid_uuid', message: expect.any(String) },
    ]);
    const valid = '6ba7b810-9dad-11d1-80b4-00c04fd430c8';
    expect(
      await issuesOf(() =>
        body({ location_uuid: 'x', allowed_location_uuids: [valid, 'nope'], parent: { uuid: 'nope' } }),
      ),
    ).toEqual([
      { parameter: 'location_uuid', errorKey: 'invalid_uuid', message: expect.any(String) },
      { parameter: 'allowed_location_uuids', errorKey: 'invalid_uuid', message: expect.any(String) },
      { parameter: 'parent.uuid', errorKey: 'invalid_uuid', message: expect.any(String) },
    ]);
    expect(await issuesOf(() => new AssetUuidPipe().transform('nope'))).toEqual([
      { parameter: 'uuid', errorKey: 'invalid_uuid', message: expect.any(String) },
    ]);
    expect(await issuesOf(() => new SensorUuidPipe().transform(valid))).toEqual([
      { parameter: 'uuid', errorKey: 'invalid_uuid', message: expect.any(String) },
    ]);
  });

  it('answers a UUID field that is not a string at all with invalid_type', async () => {
    expect(await issuesOf(() => body({ location_uuid: 12 }))).toEqual([
      { parameter: 'location_uuid', errorKey: 'invalid_type', message: expect.any(String) },
    ]);
  });

  it('lower-cases UUIDs it accepts', async () => {
    const upper = '6BA7B810-9DAD-11D1-80B4-00C04FD430C8';
    expect(await body({ location_uuid: upper, allowed_location_uuids: [upper] })).toEqual({
      location_uuid: upper.toLowerCase(),
      allowed_location_uuids: [upper.toLowerCase()],
    });
  });
});
