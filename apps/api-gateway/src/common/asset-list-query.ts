import { applyDecorators } from '@nestjs/common';
import { ApiHideProperty, ApiProperty, ApiPropertyOptional, ApiQuery } from '@nestjs/swagger';
import type { AssetSort, ListAssetsPayload } from '@cpc/contracts';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '@cpc/pagination';
import { Type } from 'class-transformer';
import { IsInt, IsString, Matches, Max, Min, ValidateNested } from 'class-validator';
import { OptionalField, OrderByTransform, orderByPattern, QueryInt } from './dto-decorators.js';

/** `limit` and `page` as the spec's pagination conventions say; every asset list has them. */
export class PageQuery {
  @ApiPropertyOptional({
    type: 'integer',
    format: 'int64',
    minimum: 1,
    maximum: MAX_PAGE_SIZE,
    default: DEFAULT_PAGE_SIZE,
    description: 'Maximum items per page.',
  })
  @OptionalField()
  @QueryInt()
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  limit?: number;

  @ApiPropertyOptional({
    type: 'integer',
    format: 'int64',
    minimum: 1,
    default: 1,
    description: 'Page number, starting at 1.',
  })
  @OptionalField()
  @QueryInt()
  @IsInt()
  @Min(1)
  page?: number;
}

/** The query of one asset list as the service takes it; the default order is newest first. */
export function toListPayload<TFilter extends object, TField extends string>(
  query: PageQuery & { order_by?: string; filter?: TFilter },
): ListAssetsPayload<TFilter, TField> {
  const orderBy: AssetSort<TField>[] = (query.order_by ? query.order_by.split(',') : []).map((part) => ({
    field: part.slice(1) as TField,
    direction: part.startsWith('-') ? 'desc' : 'asc',
  }));
  const filter = Object.fromEntries(
    Object.entries(query.filter ?? {}).filter(([, value]) => value !== undefined),
  ) as TFilter;
  return { page: query.page ?? 1, limit: query.limit ?? DEFAULT_PAGE_SIZE, orderBy, filter };
}

/** Documents `filter[field]` query parameters (bracket notation, deep-object style). */
export const ApiFilterQueries = (filters: Record<string, Record<string, unknown>>) =>
  applyDecorators(
    ...Object.entries(filters).map(([field, schema]) =>
      ApiQuery({
        name: `filter[${field}]`,
        required: false,
        schema,
        description: typeof schema.description === 'string' ? schema.description : undefined,
      }),
    ),
  );

export const ORDER_BY_DESCRIPTION =
  'Comma-separated fields, each prefixed with + (ascending) or - (descending); default -created_at. ' +
  'Send + as %2B (an unencoded + in a query string is a space, which is read as +).';

/** The spec's pagination object. */
export class AssetPaginationBody {
  @ApiProperty({
    type: 'integer',
    format: 'int64',
    minimum: 1,
    description: 'Current page number, starting at 1.',
  })
  page: number;

  @ApiProperty({ type: 'integer', format: 'int64', minimum: 1, description: 'Total number of pages.' })
  total_pages: number;

  @ApiProperty({
    type: 'integer',
    format: 'int64',
    description: 'Number of items per page (the limit asked for).',
  })
  page_size: number;

  @ApiProperty({ description: 'True when more pages exist after the current one.' })
  has_more: boolean;
}

/** `{}`: the body of a successful delete of a location, controller or plug. */
export class EmptyBody {}

/** The `order_by` query parameter over the given sortable fields. */
export const OrderByQuery = (fields: readonly string[]) =>
  applyDecorators(
    ApiPropertyOptional({
      pattern: orderByPattern(fields).source,
      example: '-created_at',
      description: `${ORDER_BY_DESCRIPTION} Fields: ${fields.join(', ')}.`,
    }),
    OptionalField(),
    OrderByTransform(),
    IsString(),
    Matches(orderByPattern(fields), { message: `order_by must match ${orderByPattern(fields).source}` }),
  );

/** The `filter[...]` query parameters, parsed into an object (documented per route with ApiFilterQueries). */
export const FilterQuery = (type: () => new () => object) =>
  applyDecorators(ApiHideProperty(), OptionalField(), ValidateNested(), Type(type));
