// PostgreSQL going away under load (its connections cut and new ones refused, through a TCP proxy in
// front of the machine's PostgreSQL, which other tests share and must not be stopped): requests fail
// fast with 503 in the `{error}` shape, the healthcheck says unhealthy, the process stays up, and it
// recovers by itself within seconds once the database is back. Real process. A page the server keeps
// (src/http/routes/page-cache.ts: the home timeline here) may still be answered from memory while the
// database is away: nothing can change it then, since every write fails (docs/security.md, "Faults").
import { describe, expect, test, vi } from "vitest";
import { serverPerSuite, usersOn } from "../support/processes.ts";
import { waitFor } from "../support/wait.ts";

vi.setConfig({ testTimeout: 180_000, hookTimeout: 120_000 });

describe("database outage", () => {
  const suite = serverPerSuite({ viaProxy: true });

  test("503 fast while the database is away, unhealthy, then recovery without a restart", async () => {
    const { server, proxy } = suite;
    const { alice } = await usersOn(server.url, ["alice"]);
    const timeline = () => fetch(`${server.url}/api/v1/timelines/home`, { headers: alice.auth });
    // a read no page is kept for: it needs the database every time
    const notifications = () => fetch(`${server.url}/api/v1/notifications`, { headers: alice.auth });
    const post = (text: string) => fetch(`${server.url}/api/v1/statuses`, { method: "POST", headers: { ...alice.auth, "content-type": "application/json" }, body: JSON.stringify({ status: text }) });
    expect((await timeline()).status).toBe(200);

    // load: a steady stream of reads and writes, through the outage and after it
    const seen: number[] = [];
    let stop = false;
    const load = (async () => {
      for (let i = 0; !stop; i++) {
        const res = await (i % 2 ? timeline() : post(`load ${i}`)).catch(() => null);
        seen.push(res?.status ?? 0);
      }
    })();
    await waitFor(async () => seen.length > 10, "some load", { timeoutMs: 30_000 });

    await proxy.cut();
    const started = Date.now();
    const down = await notifications();
    const elapsed = Date.now() - started;
    expect(down.status).toBe(503);
    expect(await down.json()).toEqual({ error: expect.stringMatching(/database/i) });
    expect(down.headers.get("retry-after")).toBeTruthy();
    expect(elapsed).toBeLessThan(5000);
    // the home page: kept from before the cut (200), or dropped by the load's last post (503)
    expect([200, 503]).toContain((await timeline()).status);
    const write = await post("during the outage");
    expect(write.status).toBe(503);
    const health = await fetch(`${server.url}/api/v1/ext/healthcheck`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ healthy: false });
    // the outage lasts a while under load: until the load has met it a few times
    const during = seen.length;
    await waitFor(() => seen.slice(during).filter((s) => s === 503).length >= 5, "the load to get five 503s during the outage", { timeoutMs: 30_000 });

    await proxy.restore();
    const back = Date.now();
    await waitFor(async () => (await fetch(`${server.url}/api/v1/ext/healthcheck`)).status === 200, "healthy again", { timeoutMs: 20_000 });
    await waitFor(async () => (await notifications()).status === 200, "reads again", { timeoutMs: 20_000 });
    expect((await post("after the outage")).status).toBe(200);
    expect(Date.now() - back).toBeLessThan(15_000);
    stop = true;
    await load;

    // every answer during the run was a success or a 503, never a 500 or a dropped connection
    expect(seen.filter((s) => s !== 200 && s !== 503)).toEqual([]);
    expect(seen).toContain(503);
    expect(server.child.exitCode).toBe(null);
  });
});
