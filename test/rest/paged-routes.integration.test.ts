// A route declared `paged` returns its page; the mount code sets the Link header from it and sends the
// items, so handlers never touch the response for paging (src/http/routes/pagination.ts).
import express from "express";
import type { AddressInfo } from "node:net";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { mountRoutes } from "../../src/http/routes/mount.ts";
import { assertRouteDeclared, route } from "../../src/http/routes/route.ts";
import { pageInput } from "../../src/domain/pagination.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

const byId = route({
  method: "GET",
  path: "/paged/by-id",
  summary: "a keyset page",
  auth: "public",
  query: pageInput.extend({ kind: z.string().optional() }),
  paged: "id",
  handler: async () => ({ items: [{ id: "30" }, { id: "20" }], first: "30", last: "20" }),
});
const empty = route({ method: "GET", path: "/paged/empty", summary: "an empty keyset page", auth: "public", query: pageInput, paged: "id", handler: async () => ({ items: [] }) });
const offsetQuery = z.object({ offset: z.coerce.number().int().optional(), limit: z.coerce.number().int().optional() });
const byOffset = route({
  method: "GET",
  path: "/paged/by-offset",
  summary: "an offset page",
  auth: "public",
  query: offsetQuery,
  paged: "offset",
  handler: async (_ctx, { query }) => ({ items: ["a", "b"].slice(0, query.limit ?? 2), offset: query.offset ?? 0, limit: 2 }),
});

describe("paged route declarations", () => {
  let server: TestServer;
  let url: string;
  let close: () => void;

  beforeAll(async () => {
    server = await startTestServer("pglite");
    const app = express();
    const router = express.Router();
    mountRoutes(router, [byId, empty, byOffset], server.services);
    app.use(router);
    const listening = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => listening.once("listening", resolve));
    url = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
    close = () => listening.close();
  });
  afterAll(async () => {
    close?.();
    await server?.close();
  });

  test("paged by id: Link next/prev from the page's cursors, the request's other parameters kept; the body is the items", async () => {
    const res = await fetch(`${url}/paged/by-id?limit=2&kind=x&max_id=99`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([{ id: "30" }, { id: "20" }]);
    const base = server.services.settings.baseUrl;
    expect(res.headers.get("link")).toBe(`<${base}/paged/by-id?limit=2&kind=x&max_id=20>; rel="next", <${base}/paged/by-id?limit=2&kind=x&min_id=30>; rel="prev"`);
  });

  test("an empty keyset page has no Link header", async () => {
    const res = await fetch(`${url}/paged/empty`);
    expect(await res.json()).toEqual([]);
    expect(res.headers.get("link")).toBeNull();
  });

  test("paged by offset: rel=next at offset + count when the page is full, none when it is not", async () => {
    const full = await fetch(`${url}/paged/by-offset?offset=4`);
    expect(await full.json()).toEqual(["a", "b"]);
    expect(full.headers.get("link")).toBe(`<${server.services.settings.baseUrl}/paged/by-offset?offset=6>; rel="next"`);
    const short = await fetch(`${url}/paged/by-offset?offset=4&limit=1`);
    expect(await short.json()).toEqual(["a"]);
    expect(short.headers.get("link")).toBeNull();
  });

  test("a paged route whose query does not declare its paging parameters fails at start-up", () => {
    const handler = async () => ({ items: [], offset: 0, limit: 1 });
    expect(() => assertRouteDeclared(route({ method: "GET", path: "/x", summary: "x", auth: "public", query: z.object({ limit: z.string() }), paged: "offset", handler }))).toThrow(
      /paged by offset but its query does not declare offset/,
    );
    expect(() => assertRouteDeclared(route({ method: "GET", path: "/y", summary: "x", auth: "public", paged: "id", handler: async () => ({ items: [] }) }))).toThrow(
      /does not declare max_id, since_id, min_id, limit/,
    );
  });
});
