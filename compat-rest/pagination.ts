// The reference API's Link header: rel="next" pages to older items, rel="prev" to newer ones.
import type { Request, Response } from "express";
import type { Page } from "../src/domain/pagination.ts";

export function setLinkHeader(req: Request, res: Response, baseUrl: string, page: Page<unknown>) {
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
