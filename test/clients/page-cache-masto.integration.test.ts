// The page cache (src/http/routes/page-cache.ts) as a real client meets it: the `masto` library, polling the
// home and local timelines the way third-party apps do. Each poll is first shown to be answered from the cache
// (no SQL statement), so that a missing invalidation would show the client a stale page.
import { createRestAPIClient } from "masto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";
import { waitFor } from "../support/wait.ts";

type Client = ReturnType<typeof createRestAPIClient>;

describe("the masto client polling cached pages", () => {
  let server: TestServer;
  let mia: Client; // the reader
  let noa: Client; // followed by mia
  let noaId: string;

  const clientOf = async (nickname: string) => createRestAPIClient({ url: server.url, accessToken: (await passwordToken(server, nickname)).access_token });
  /** polls until `check` holds, 2 s at most (other accounts' statuses reach the pages asynchronously) */
  function poll<T>(read: () => Promise<T>, check: (v: T) => boolean, timeoutMs = 2_000): Promise<T> {
    return waitFor(async () => {
      const v = await read();
      return check(v) && { v };
    }, "the page to change", { timeoutMs, intervalMs: 50 }).then((found) => found.v);
  }
  /** the poll is answered from the page cache: a repeated call runs no statement */
  function kept<T>(read: () => Promise<T>): Promise<T> {
    return waitFor(async () => {
      await read();
      const again = await server.countQueries(read);
      return again.queries === 0 && { result: again.result };
    }, "the page to be kept (a repeated read running no statement)", { timeoutMs: 2_000, intervalMs: 50 }).then((found) => found.result);
  }

  beforeAll(async () => {
    server = await startTestServer("pglite");
    await server.createUser("mia");
    noaId = (await server.createUser("noa")).id;
    await server.createUser("lou");
    [mia, noa] = [await clientOf("mia"), await clientOf("noa")];
    await mia.v1.accounts.$select(noaId).follow();
    await mia.v1.statuses.create({ status: "mia's first" });
  });
  afterAll(() => server?.close());

  // a Paginator is awaited for its first page
  const home = async () => await mia.v1.timelines.home.list({ limit: 20 });

  test("a followed account's new post reaches the polled home timeline", async () => {
    const before = await kept(home);
    // noa has not posted yet: nothing on the page shows noa, so only the new status's delivery can drop it
    expect(before.map((s) => s.content)).toEqual([expect.stringContaining("mia's first")]);
    const posted = await noa.v1.statuses.create({ status: "noa's first" });
    const after = await poll(home, (page) => page.some((s) => s.id === posted.id));
    expect(after[0]).toMatchObject({ id: posted.id, account: { id: noaId, acct: "noa" } });
  });

  test("the reader's own favourite shows on its next poll, at once", async () => {
    const page = await kept(home);
    const target = page[0];
    expect(target).toMatchObject({ favourited: false, favouritesCount: 0 });
    const faved = await mia.v1.statuses.$select(target.id).favourite();
    expect(faved).toMatchObject({ favourited: true, favouritesCount: 1 });
    expect((await home()).find((s) => s.id === target.id)).toMatchObject({ favourited: true, favouritesCount: 1 });
    // and taking it back
    await kept(home);
    await mia.v1.statuses.$select(target.id).unfavourite();
    expect((await home()).find((s) => s.id === target.id)).toMatchObject({ favourited: false, favouritesCount: 0 });
  });

  test("a new local post reaches the polled local timeline", async () => {
    const local = async () => await mia.v1.timelines.public.list({ local: true, limit: 20 });
    const lou = await clientOf("lou");
    const before = await kept(local);
    expect(before.length).toBeGreaterThan(0);
    // lou has not posted yet: nothing on the page shows lou, so only the new status's delivery can drop it
    const posted = await lou.v1.statuses.create({ status: "lou says hello" });
    const after = await poll(local, (page) => page.some((s) => s.id === posted.id));
    expect(after[0]).toMatchObject({ id: posted.id, account: { acct: "lou" } });
  });
});
