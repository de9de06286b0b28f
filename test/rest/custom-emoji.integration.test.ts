import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { suiteKinds } from "../support/databases.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { admin, user, type User } from "../support/actors.ts";
import { call, GIF, writePackOnDisk } from "./emoji-helpers.ts";

describe.each(suiteKinds(import.meta.url))("custom emoji on %s", (kind) => {
  let server: TestServer;
  let root: User;
  let ana: User;
  let ben: User;
  const url = (pack: string, file: string) => `${server.services.settings.baseUrl}/emoji/packs/${pack}/${file}`;
  const entity = (shortcode: string, pack: string, file: string) => ({ shortcode, url: url(pack, file), static_url: url(pack, file), visible_in_picker: false });

  beforeAll(async () => {
    server = await startTestServer(kind);
    writePackOnDisk(server, "blobs", { blobcat: "blobcat.png", blobfox: "fox/blobfox.png" }, { "share-files": true });
    writePackOnDisk(server, "party", { partyparrot: "parrot.gif", blobcat: "other-blobcat.gif" }, {}, GIF);
    root = await admin(server, "root");
    ana = await user(server, "ana");
    ben = await user(server, "ben");
    // the packs were copied after start-up: an admin's reload makes them known
    expect((await call(server, ana, "POST", "/api/v1/ext/admin/reload_emoji")).status).toBe(403);
    expect(await call(server, root, "POST", "/api/v1/ext/admin/reload_emoji")).toMatchObject({ status: 200, body: "ok" });
  });
  afterAll(() => server?.close());

  test("GET /api/v1/custom_emojis and the custom emoji map list the packs' emoji", async () => {
    const list = await call(server, null, "GET", "/api/v1/custom_emojis");
    expect(list.status).toBe(200);
    expect(list.body).toEqual([
      { shortcode: "blobcat", url: url("blobs", "blobcat.png"), static_url: url("blobs", "blobcat.png"), visible_in_picker: true, category: "blobs" },
      { shortcode: "blobfox", url: url("blobs", "fox/blobfox.png"), static_url: url("blobs", "fox/blobfox.png"), visible_in_picker: true, category: "blobs" },
      { shortcode: "partyparrot", url: url("party", "parrot.gif"), static_url: url("party", "parrot.gif"), visible_in_picker: true, category: "party" },
    ]);
    const map = await call(server, null, "GET", "/api/v1/ext/emoji");
    expect(map.body).toEqual({
      blobcat: { image_url: "/emoji/packs/blobs/blobcat.png", tags: ["pack:blobs"] },
      blobfox: { image_url: "/emoji/packs/blobs/fox/blobfox.png", tags: ["pack:blobs"] },
      partyparrot: { image_url: "/emoji/packs/party/parrot.gif", tags: ["pack:party"] },
    });
    expect((await call(server, null, "GET", "/api/ext/emoji.json")).body).toEqual(map.body);
    expect((await server.fetch("/emoji/packs/blobs/fox/blobfox.png")).status).toBe(200);
  });

  test("posting :shortcode: in the text and spoiler stores and renders the status's emojis", async () => {
    const res = await call(server, ana, "POST", "/api/v1/statuses", { status: "hi :blobcat: and :nothere: again :blobcat::blobfox:", spoiler_text: ":partyparrot: cw" });
    expect(res.status).toBe(200);
    expect(res.body.emojis).toEqual([entity("blobcat", "blobs", "blobcat.png"), entity("blobfox", "blobs", "fox/blobfox.png"), entity("partyparrot", "party", "parrot.gif")]);
    const row = await server.services.db.status.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(row.emojis).toEqual([
      { shortcode: "blobcat", url: url("blobs", "blobcat.png") },
      { shortcode: "blobfox", url: url("blobs", "fox/blobfox.png") },
      { shortcode: "partyparrot", url: url("party", "parrot.gif") },
    ]);
    expect((await call(server, null, "GET", `/api/v1/statuses/${res.body.id}`)).body.emojis).toHaveLength(3);
    // the content keeps the text: clients replace shortcodes with the images
    expect(res.body.content).toContain(":blobcat:");

    const plain = await call(server, ana, "POST", "/api/v1/statuses", { status: "no emoji: here:" });
    expect(plain.body.emojis).toEqual([]);

    const edited = await call(server, ana, "PUT", `/api/v1/statuses/${res.body.id}`, { status: "now only :blobfox:", spoiler_text: "" });
    expect(edited.status).toBe(200);
    expect(edited.body.emojis).toEqual([entity("blobfox", "blobs", "fox/blobfox.png")]);
  });

  test("display name, note and fields carry their emoji on the account", async () => {
    const res = await call(server, ben, "PATCH", "/api/v1/accounts/update_credentials", {
      display_name: ":blobcat: Ben",
      note: "I like :partyparrot:",
      fields_attributes: [{ name: "fav", value: ":blobfox:" }],
    });
    expect(res.status).toBe(200);
    expect(res.body.emojis).toEqual([entity("blobcat", "blobs", "blobcat.png"), entity("partyparrot", "party", "parrot.gif"), entity("blobfox", "blobs", "fox/blobfox.png")]);
    const row = await server.services.db.account.findUniqueOrThrow({ where: { id: ben.id } });
    expect((row.emojis as { shortcode: string }[]).map((e) => e.shortcode)).toEqual(["blobcat", "partyparrot", "blobfox"]);
    expect((await call(server, null, "GET", `/api/v1/accounts/${ben.id}`)).body.emojis).toHaveLength(3);
    // a change elsewhere in the profile keeps them; a new display name recomputes them
    expect((await call(server, ben, "PATCH", "/api/v1/accounts/update_credentials", { locked: true })).body.emojis).toHaveLength(3);
    const renamed = await call(server, ben, "PATCH", "/api/v1/accounts/update_credentials", { display_name: "Ben", note: "", fields_attributes: [] });
    expect(renamed.body.emojis).toEqual([]);
  });

  test("reacting with a custom shortcode (with or without colons) stores it with its image; unknown ones 400", async () => {
    const status = (await call(server, ana, "POST", "/api/v1/statuses", { status: "react" })).body.id as string;
    const path = (emoji: string) => `/api/v1/ext/statuses/${status}/reactions/${encodeURIComponent(emoji)}`;
    const image = url("blobs", "blobcat.png");

    const first = await call(server, ben, "PUT", path(":blobcat:"));
    expect(first.status).toBe(200);
    expect(first.body.emoji_reactions).toEqual([{ name: "blobcat", count: 1, me: true, account_ids: [ben.id], url: image }]);
    expect(first.body.ext.emoji_reactions).toEqual(first.body.emoji_reactions);
    const second = await call(server, root, "PUT", `/api/v1/statuses/${status}/emoji_reactions/blobcat`);
    expect(second.body.emoji_reactions).toEqual([{ name: "blobcat", count: 2, me: true, account_ids: [ben.id, root.id], url: image }]);
    await call(server, ben, "PUT", path("👍"));

    const rows = await server.services.db.reaction.findMany({ where: { statusId: status }, orderBy: { id: "asc" } });
    expect(rows.map((r) => [r.emoji, r.emojiUrl])).toEqual([
      ["blobcat", image],
      ["blobcat", image],
      ["👍", null],
    ]);
    const groups = await call(server, ana, "GET", `/api/v1/ext/statuses/${status}/reactions`);
    expect(groups.body.map((g: any) => [g.name, g.count, g.url])).toEqual([
      ["blobcat", 2, image],
      ["👍", 1, undefined],
    ]);
    expect((await call(server, ana, "GET", path(":blobcat:"))).body).toHaveLength(1);
    const note = await server.services.db.notification.findFirst({ where: { statusId: status, type: "emoji_reaction", fromAccountId: ben.id, emoji: "blobcat" } });
    expect(note).not.toBeNull();

    const unknown = await call(server, ben, "PUT", path(":nothere:"));
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatch(/custom emoji/);
    expect((await call(server, ben, "PUT", path("nothere"))).status).toBe(400);

    const removed = await call(server, ben, "DELETE", path(":blobcat:"));
    expect(removed.body.emoji_reactions[0]).toEqual({ name: "blobcat", count: 1, me: false, account_ids: [root.id], url: image });
    expect((await call(server, ben, "DELETE", path(":blobcat:"))).status).toBe(400);
  });

  test("reload_emoji picks up packs changed on disk", async () => {
    writePackOnDisk(server, "late", { latecomer: "late.png" });
    expect((await call(server, null, "GET", "/api/v1/ext/emoji")).body.latecomer).toBeUndefined();
    expect((await call(server, root, "POST", "/api/ext/admin/reload_emoji")).status).toBe(200);
    expect((await call(server, null, "GET", "/api/v1/ext/emoji")).body.latecomer).toEqual({ image_url: "/emoji/packs/late/late.png", tags: ["pack:late"] });
  });
});
