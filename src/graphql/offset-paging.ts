// Offset-paged lists (the admin API pages by `page`/`page_size`) as Relay connections with a total.
import { resolveOffsetConnection } from "@pothos/plugin-relay";

export async function offsetConnection<T>(
  args: { first?: number | null; last?: number | null; before?: string | null; after?: string | null },
  fetch: (offset: number, limit: number) => Promise<{ total: number; items: T[] }>,
) {
  let totalCount = 0;
  const connection = await resolveOffsetConnection({ args }, async ({ offset, limit }) => {
    const page = await fetch(offset, limit);
    totalCount = page.total;
    return page.items;
  });
  return { ...connection, totalCount };
}

export const totalCountField = {
  fields: (c: any) => ({ totalCount: c.int({ resolve: (conn: { totalCount: number }) => conn.totalCount }) }),
};
