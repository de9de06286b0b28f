import { expect, test } from "vitest";
import { setLinkHeader } from "../../src/http/routes/pagination.ts";

test("Link headers keep the request's filters, arrays included, and replace the cursors", () => {
  const headers: Record<string, string> = {};
  const req = { path: "/api/v1/notifications", query: { limit: "2", max_id: "zzz", "types": ["mention", "favourite"] } } as any;
  const res = { set: (k: string, v: string) => void (headers[k] = v) } as any;
  setLinkHeader(req, res, "https://social.example", { items: [1, 2], first: "b", last: "a" });
  const [next, prev] = headers.Link.split(", ").map((part) => new URL(part.slice(1, part.indexOf(">"))));
  expect(next.pathname).toBe("/api/v1/notifications");
  expect(next.searchParams.getAll("types[]")).toEqual(["mention", "favourite"]);
  expect(Object.fromEntries([...next.searchParams].filter(([k]) => k !== "types[]"))).toEqual({ limit: "2", max_id: "a" });
  expect(prev.searchParams.get("min_id")).toBe("b");
  expect(prev.searchParams.has("max_id")).toBe(false);
});
