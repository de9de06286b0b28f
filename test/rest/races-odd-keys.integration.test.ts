// No 5xx from races on rows made on first use or from names that are keys of every object: 20 requests
// at once naming a new hashtag (follow, feature, edit adding it) answer without a 5xx and leave one tag
// row; 20 identical first bookmarks, favourites, thread mutes, domain blocks or markers leave one row each
// (src/db/upsert-retry.ts); `constructor`, `__proto__`, `toString` and `hasOwnProperty` as a document name
// or a metrics key are unknown names (404, or nothing measured), not a crash; an emoji zip keeps only real
// images, and one of more than 1,000 files is refused with 422 before anything is written.
import fs from "node:fs";
import path from "node:path";
import { strToU8, zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { suiteKinds } from "../support/databases.ts";
import { admin, post, user, type User } from "../support/actors.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { PNG, packsDir, writePackOnDisk } from "./emoji-helpers.ts";

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

const PROTOTYPE_KEYS = ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf"];

describe.each(suiteKinds(import.meta.url))("races on first use and odd keys on %s", (kind) => {
  let server: TestServer;
  let root: User;
  const people: User[] = [];

  beforeAll(async () => {
    server = await startTestServer(kind);
    root = await admin(server, "root");
    for (let i = 0; i < 20; i++) people.push(await user(server, `racer${i}`));
  });
  afterAll(() => server?.close());

  const tagRows = (name: string) => server.services.db.tag.count({ where: { name } });
  const statuses = (responses: Response[]) => responses.map((r) => r.status);

  test("20 follows of a new hashtag at once (by 20 accounts, and by one account 20 times): no 5xx, one tag row, one follow each", async () => {
    const many = await Promise.all(people.map((p) => server.fetch("/api/v1/tags/racefollow/follow", { method: "POST", headers: p.auth })));
    expect(statuses(many)).toEqual(people.map(() => 200));
    expect(await tagRows("racefollow")).toBe(1);

    const same = await Promise.all(people.map(() => server.fetch("/api/v1/tags/raceagain/follow", { method: "POST", headers: people[0].auth })));
    expect(statuses(same)).toEqual(people.map(() => 200));
    expect(await tagRows("raceagain")).toBe(1);
    expect(await server.services.db.followedTag.count({ where: { accountId: people[0].id, tag: { name: "raceagain" } } })).toBe(1);
  });

  test("20 features of a new hashtag at once: no 5xx, one tag row; one account featuring it 20 times keeps one, the rest told it is taken", async () => {
    const many = await Promise.all(people.map((p) => server.fetch("/api/v1/featured_tags", { json: { name: "racefeature" }, headers: p.auth })));
    expect(statuses(many)).toEqual(people.map(() => 200));
    expect(await tagRows("racefeature")).toBe(1);

    const same = await Promise.all(people.map(() => server.fetch("/api/v1/featured_tags", { json: { name: "racefeaturetwice" }, headers: people[1].auth })));
    expect(statuses(same).filter((s) => s === 200)).toHaveLength(1);
    expect(statuses(same).filter((s) => s !== 200)).toEqual(people.slice(1).map(() => 422));
    expect(await server.services.db.featuredTag.count({ where: { accountId: people[1].id, tag: { name: "racefeaturetwice" } } })).toBe(1);
  });

  test("20 edits adding the same new hashtag at once: no 5xx, one tag row, every status tagged", async () => {
    const ids = await Promise.all(people.map((p, i) => post(server, p, `before ${i}`)));
    const edits = await Promise.all(people.map((p, i) => server.fetch(`/api/v1/statuses/${ids[i]}`, { method: "PUT", json: { status: `after ${i} #raceedit` }, headers: p.auth })));
    expect(statuses(edits)).toEqual(people.map(() => 200));
    expect(await tagRows("raceedit")).toBe(1);
    expect(await server.services.db.statusTag.count({ where: { tag: { name: "raceedit" } } })).toBe(20);
  });

  test("20 identical first-time bookmarks, favourites, thread mutes, domain blocks and markers at once: no 5xx, one row each", async () => {
    const me = people[2];
    const statusId = await post(server, people[3], "a status to race on");
    const twenty = (path: string, init: { json?: unknown } = {}) => Promise.all(people.map(() => server.fetch(path, { method: "POST", ...init, headers: me.auth })));
    const db = server.services.db;
    const cases: [string, () => Promise<Response[]>, () => Promise<number>][] = [
      ["bookmark", () => twenty(`/api/v1/statuses/${statusId}/bookmark`), () => db.bookmark.count({ where: { accountId: me.id, statusId } })],
      ["favourite", () => twenty(`/api/v1/statuses/${statusId}/favourite`), () => db.favourite.count({ where: { accountId: me.id, statusId } })],
      ["thread mute", () => twenty(`/api/v1/statuses/${statusId}/mute`), () => db.threadMute.count({ where: { accountId: me.id } })],
      ["domain block", () => twenty("/api/v1/domain_blocks", { json: { domain: "race.example" } }), () => db.domainBlock.count({ where: { accountId: me.id, domain: "race.example" } })],
      ["markers", () => twenty("/api/v1/markers", { json: { home: { last_read_id: statusId } } }), () => db.marker.count({ where: { accountId: me.id, timeline: "home" } })],
    ];
    for (const [what, race, rows] of cases) {
      // soft: one run names every kind that fails
      expect.soft(statuses(await race()), what).toEqual(people.map(() => 200));
      expect.soft(await rows(), what).toBe(1);
    }
  });

  test("prototype-named instance documents are unknown documents: 404 {error}", async () => {
    for (const name of PROTOTYPE_KEYS) {
      for (const method of ["GET", "DELETE"]) {
        const res = await server.fetch(`/api/v1/ext/admin/instance_document/${name}`, { method, headers: root.auth });
        expect(res.status, `${method} ${name}`).toBe(404);
        expect(await res.json(), `${method} ${name}`).toEqual({ error: expect.any(String) });
      }
    }
    // the real names still answer
    expect((await server.fetch("/api/v1/ext/admin/instance_document/terms-of-service", { headers: root.auth })).status).toBe(200);
  });

  test("prototype-named metrics keys measure nothing, as any unknown key", async () => {
    const keys = PROTOTYPE_KEYS.map((k) => `keys[]=${k}`).join("&");
    const range = "start_at=2026-01-01&end_at=2026-01-03";
    for (const route of ["measures", "dimensions"]) {
      const res = await server.fetch(`/api/v1/admin/${route}?${keys}&${range}`, { method: "POST", headers: root.auth });
      expect(res.status, route).toBe(200);
      expect(await res.json(), route).toEqual([]);
    }
  });

  describe("emoji zips", () => {
    const upload = (pack: string, zip: Uint8Array) => {
      const form = new FormData();
      form.append("file", new Blob([new Uint8Array(zip)]), "pack.zip");
      return server.fetch(`/api/v1/ext/emoji/packs/files?name=${pack}`, { method: "POST", body: form, headers: root.auth });
    };

    test("only real images are kept: entries named .png that are not images are left out", async () => {
      writePackOnDisk(server, "sniffed", {});
      const zip = zipSync({ "real.png": new Uint8Array(PNG), "fake.png": strToU8("<?php echo 'not an image'; ?>"), "script.gif": strToU8("#!/bin/sh\n"), "notes.txt": strToU8("text") });
      const res = await upload("sniffed", zip);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ real: "real.png" });
      expect(fs.readdirSync(path.join(packsDir(server), "sniffed")).sort()).toEqual(["pack.json", "real.png"]);
    });

    test("a zip of 20,000 files is refused with 422, nothing written", async () => {
      writePackOnDisk(server, "flooded", {});
      const entries: Record<string, Uint8Array> = { "first.png": new Uint8Array(PNG) };
      for (let i = 0; i < 20_000; i++) entries[`junk/${i}.png`] = strToU8(`not an image ${i}`);
      const res = await upload("flooded", zipSync(entries, { level: 0 }));
      expect(res.status).toBe(422);
      expect((await res.json()).error).toMatch(/more than 1000 files/);
      expect(fs.readdirSync(path.join(packsDir(server), "flooded"))).toEqual(["pack.json"]);
    });
  });
});
