// The reference API's Link header: rel="next" pages to older items, rel="prev" to newer ones.
// A route declares how it pages (`paged` in src/http/routes/route.ts); its handler returns one of the
// pages below and the mount code (`pageBody`) sets the header and sends the items.
import type { Request, Response } from "express";

/**
 * `paged: "id"`: keyset pages by max_id / since_id / min_id. `items` is the body sent (the rendered rows;
 * grouped notifications render theirs as one object), first/last the cursors of the page's rows.
 */
export interface IdPage {
  items: unknown;
  first?: string;
  last?: string;
}

/** `paged: "offset"`: the offset asked for and the page size; a full page has a next one. */
export interface OffsetPage {
  items: unknown[];
  offset: number;
  limit: number;
}

export type Paging = "id" | "offset";

/** The query parameters each kind of paging reads: a paged route's query declares them (checked at start-up). */
export const PAGING_PARAMS: Record<Paging, readonly string[]> = {
  id: ["max_id", "since_id", "min_id", "limit"],
  offset: ["offset", "limit"],
};

export function setLinkHeader(req: Request, res: Response, baseUrl: string, page: IdPage) {
  if (!page.first || !page.last) return;
  const link = (params: Record<string, string>) => {
    const url = new URL(req.path, baseUrl);
    for (const [k, v] of Object.entries(req.query)) {
      if (["max_id", "min_id", "since_id"].includes(k)) continue;
      if (typeof v === "string") url.searchParams.set(k, v);
      // array filters (types[], exclude_visibilities[]) carry over to the next page too
      else if (Array.isArray(v)) for (const item of v) if (typeof item === "string") url.searchParams.append(`${k}[]`, item);
    }
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    return url.toString();
  };
  res.set("Link", `<${link({ max_id: page.last })}>; rel="next", <${link({ min_id: page.first })}>; rel="prev"`);
}

/** The Link header of lists paged by `offset` (trends, directory): rel="next" when the page was full. */
export function setOffsetLinkHeader(req: Request, res: Response, baseUrl: string, offset: number, limit: number, count: number) {
  if (count < limit) return;
  const url = new URL(req.path, baseUrl);
  for (const [k, v] of Object.entries(req.query)) if (typeof v === "string") url.searchParams.set(k, v);
  url.searchParams.set("offset", String(offset + count));
  res.set("Link", `<${url}>; rel="next"`);
}

/**
 * Sets a paged route's Link header from the page its handler returned (typed by `route()`, see
 * src/http/routes/route.ts); answers the body to send.
 */
export function pageBody(paged: Paging, req: Request, res: Response, baseUrl: string, result: unknown): unknown {
  if (paged === "id") {
    const page = result as IdPage;
    setLinkHeader(req, res, baseUrl, page);
    return page.items;
  }
  const page = result as OffsetPage;
  setOffsetLinkHeader(req, res, baseUrl, page.offset, page.limit, page.items.length);
  return page.items;
}
