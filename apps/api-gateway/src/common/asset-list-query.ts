import { applyDecorators } from '@nestjs/common';
import { ApiHideProperty, ApiProperty, ApiPropertyOptional, ApiQuery, getSchemaPath } from '@nestjs/swagger';
import type { AssetSort, ListAssetsPayload } from '@cpc/contracts';
import { CURSOR_PATTERN, DEFAULT_PAGE_SIZE, MAX_CURSOR_LENGTH, MAX_PAGE_SIZE } from '@cpc/pagination';
import { Type } from 'class-transformer';
import { IsInt, IsString, Length, Matches, Max, Min, ValidateBy, ValidateNested } from 'class-validator';
import { OptionalField, OrderByTransform, orderByPattern, QueryInt } from './dto-decorators.js';

/** A constraint comparing a query parameter with another one of the same query (errorKey invalid_value). */
const CrossCheck = (
  name: string,
  isValid: (value: unknown, query: Record<string, unknown>) => boolean,
  message: string,
) =>
  ValidateBy({
    name,
    validator: {
      validate: (value, args) => isValid(value, (args?.object ?? {}) as Record<string, unknown>),
      defaultMessage: () => message,
    },
  });

/**
 * `limit` (or its alias `page_size`) and `page` as the spec's pagination conventions say; every list has them.
 */
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
    maximum: MAX_PAGE_SIZE,
    description:
      "The same as limit (the spec's pagination conventions accept both); when both are sent they must agree.",
  })
  @OptionalField()
  @QueryInt()
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  @CrossCheck(
    'sameAsLimit',
    (value, query) => query.limit === undefined || query.limit === value,
    'page_size is the same as limit: send one, or the same value in both',
  )
  page_size?: number;

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

/**
 * The query of a list that can grow without bound: numbered pages as PageQuery, or the spec's cursor style, `cursor`
 * (from `pagination.cursor.next` / `prev` of an earlier page of the same list, same filters and order) and `limit`.
 */
export class CursorPageQuery extends PageQuery {
  @ApiPropertyOptional({
    type: 'string',
    maxLength: MAX_CURSOR_LENGTH,
    pattern: CURSOR_PATTERN.source,
    description:
      'An opaque cursor from pagination.cursor.next or .prev of an earlier page of this list, with the same filters ' +
      'and order. The page then follows (or precedes) that position, read from the index whatever its depth, and ' +
      'its pagination has page_size, has_more and cursor (no page numbers). Not together with page. A cursor that ' +
      'is not one of this list is refused (422, errorKey invalid_cursor).',
  })
  @OptionalField()
  @IsString()
  @Length(1, MAX_CURSOR_LENGTH)
  @Matches(CURSOR_PATTERN, { message: 'cursor must be a cursor from pagination.cursor of this list' })
  @CrossCheck(
    'notWithPage',
    (_value, query) => query.page === undefined,
    'cursor and page exclude each other',
  )
  cursor?: string;
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
  return {
    page: query.page ?? 1,
    limit: query.limit ?? query.page_size ?? DEFAULT_PAGE_SIZE,
    orderBy,
    filter,
  };
}

/** As toListPayload, with the cursor of a list that offers the cursor style. */
export function toCursorListPayload<TFilter extends object, TField extends string>(
  query: CursorPageQuery & { order_by?: string; filter?: TFilter },
): ListAssetsPayload<TFilter, TField> & { cursor?: string } {
  const payload = toListPayload<TFilter, TField>(query);
  return query.cursor === undefined ? payload : { ...payload, cursor: query.cursor };
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

/** The description of an asset list that offers the cursor style too. */
export const CURSOR_LIST_DESCRIPTION =
  'Newest first unless order_by says otherwise. The list can grow without bound, so it is offered by cursor too ' +
  '(cursor and limit, the same filters and order_by; pagination.cursor.next / prev), read by keyset in any order.';

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

/** `pagination.cursor`: opaque cursors of the neighbouring pages. */
export class CursorLinksBody {
  @ApiPropertyOptional({
    description: 'Cursor of the next page (send it as cursor); absent on the last page.',
  })
  next?: string;

  @ApiPropertyOptional({
    description: 'Cursor of the previous page; absent on the first page.',
  })
  prev?: string;
}

/** The pagination of a numbered page of a list that also offers cursors: the spec's object and `cursor`. */
export class PagePaginationBody extends AssetPaginationBody {
  @ApiProperty({ type: CursorLinksBody, description: 'Cursors to go on from this page in the cursor style.' })
  cursor: CursorLinksBody;
}

/** The pagination of a page read by cursor: no page numbers (they would need a count of the whole list). */
export class CursorPaginationBody {
  @ApiProperty({
    type: 'integer',
    format: 'int64',
    description: 'Number of items per page (the limit asked for).',
  })
  page_size: number;

  @ApiProperty({ description: 'True when a next page exists (pagination.cursor.next is present).' })
  has_more: boolean;

  @ApiProperty({ type: CursorLinksBody })
  cursor: CursorLinksBody;
}

/** The schema of `pagination` in a list that offers both styles: a numbered page or a page read by cursor. */
export const LIST_PAGINATION_SCHEMA = {
  anyOf: [{ $ref: getSchemaPath(PagePaginationBody) }, { $ref: getSchemaPath(CursorPaginationBody) }],
  description:
    'A numbered page (page, total_pages, page_size, has_more, cursor) or, read by cursor, page_size, has_more and cursor.',
};

/** The answer of a list that offers both styles, without its items (each list adds them under its own name). */
export class CursorListResponseBody {
  @ApiProperty(LIST_PAGINATION_SCHEMA) pagination: PagePaginationBody | CursorPaginationBody;
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
