/** How a walk reads a list: one page by cursor, and a page's cursor links and ids. */
export interface CursorWalkReader<TPage> {
  page(cursor: string): Promise<TPage>;
  links(page: TPage): { next?: string; prev?: string } | undefined;
  ids(page: TPage): string[];
}

/**
 * Follows `pagination.cursor[link]` from `start` until the link is absent: every page's ids (start's first) and the
 * last page read. Fails after `maxPages` pages, so a list whose links never end fails its test instead of hanging it.
 */
export async function walkCursorPages<TPage>(
  start: TPage,
  link: 'next' | 'prev',
  reader: CursorWalkReader<TPage>,
  maxPages = 1000,
): Promise<{ pages: string[][]; last: TPage }> {
  const pages = [reader.ids(start)];
  let last = start;
  let cursor = reader.links(start)?.[link];
  while (cursor !== undefined) {
    if (pages.length >= maxPages) throw new Error(`the ${link} links did not end within ${maxPages} pages`);
    last = await reader.page(cursor);
    pages.push(reader.ids(last));
    cursor = reader.links(last)?.[link];
  }
  return { pages, last };
}
