import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { suiteKinds } from "../support/databases.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { admin, user, type User } from "../support/actors.ts";
import { packsDir, writePackOnDisk } from "../rest/emoji-helpers.ts";

describe.each(suiteKinds(import.meta.url))("GraphQL emoji on %s", (kind) => {
  let server: TestServer;
  let root: User;
  let ann: User;
  const gql = (query: string, who?: User, variables?: Record<string, unknown>) =>
    server.fetch("/graphql", { json: { query, variables }, headers: who ? who.auth : {} }).then((r) => r.json() as Promise<any>);

  beforeAll(async () => {
    server = await startTestServer(kind);
    root = await admin(server, "root");
    ann = await user(server, "ann");
    writePackOnDisk(server, "blobs", { blobcat: "blobcat.png" }, { license: "CC0" });
  });
  afterAll(() => server?.close());

  test("reloadEmoji is for admins; customEmojis and emojiPacks read what REST reads", async () => {
    expect((await gql("{ customEmojis { shortcode } }")).data.customEmojis).toEqual([]);
    const refused = await gql("mutation { reloadEmoji }", ann);
    expect(refused.errors?.[0]?.message).toMatch(/not authorized/i);
    expect((await gql("mutation { reloadEmoji }")).errors?.[0]?.message).toMatch(/not authorized/i);
    expect((await gql("mutation { reloadEmoji }", root)).data).toEqual({ reloadEmoji: true });

    const emojis = await gql("{ customEmojis { shortcode url category tags } }");
    expect(emojis.data.customEmojis).toEqual([{ shortcode: "blobcat", url: `${server.services.settings.baseUrl}/emoji/packs/blobs/blobcat.png`, category: "blobs", tags: ["pack:blobs"] }]);
    const rest = await (await server.fetch("/api/v1/custom_emojis")).json();
    expect(rest.map((e: any) => e.shortcode)).toEqual(["blobcat"]);

    const packs = await gql("{ emojiPacks { count packs { name filesCount license shareFiles canDownload files { shortcode filename } } } }");
    expect(packs.data.emojiPacks).toEqual({ count: 1, packs: [{ name: "blobs", filesCount: 1, license: "CC0", shareFiles: false, canDownload: false, files: [{ shortcode: "blobcat", filename: "blobcat.png" }] }] });
    const missing = await gql('{ emojiPack(name: "nope") { name } }');
    expect(missing.errors[0]).toMatchObject({ message: "Pack nope does not exist", extensions: { code: "NOT_FOUND" } });
  });

  test("pack create, metadata update and delete run the REST operations, for admins only", async () => {
    const denied = await gql('mutation { createEmojiPack(name: "gq") { name } }', ann);
    expect(denied.errors?.[0]?.message).toMatch(/not authorized/i);
    expect(fs.existsSync(path.join(packsDir(server), "gq"))).toBe(false);

    const created = await gql('mutation { createEmojiPack(name: "gq") { name filesCount canDownload } }', root);
    expect(created.data.createEmojiPack).toEqual({ name: "gq", filesCount: 0, canDownload: false });
    expect(fs.existsSync(path.join(packsDir(server), "gq", "pack.json"))).toBe(true);
    const again = await gql('mutation { createEmojiPack(name: "gq") { name } }', root);
    expect(again.errors[0]).toMatchObject({ message: 'A pack named "gq" already exists', extensions: { code: "CONFLICT" } });
    const escaping = await gql('mutation { createEmojiPack(name: "../x") { name } }', root);
    expect(escaping.errors[0].extensions.code).toBe("INVALID");

    const updated = await gql(
      'mutation($m: EmojiPackMetadataInput!) { updateEmojiPackMetadata(name: "gq", metadata: $m) { license description shareFiles canDownload downloadSha256 } }',
      root,
      { m: { license: "MIT", description: "from graphql", shareFiles: true } },
    );
    expect(updated.data.updateEmojiPackMetadata).toMatchObject({ license: "MIT", description: "from graphql", shareFiles: true, canDownload: true, downloadSha256: expect.stringMatching(/^[0-9A-F]{64}$/) });
    expect(JSON.parse(fs.readFileSync(path.join(packsDir(server), "gq", "pack.json"), "utf8")).pack).toEqual({ license: "MIT", description: "from graphql", "share-files": true });
    // null removes a key, absent keeps it
    await gql('mutation { updateEmojiPackMetadata(name: "gq", metadata: { description: null }) { name } }', root);
    expect(JSON.parse(fs.readFileSync(path.join(packsDir(server), "gq", "pack.json"), "utf8")).pack).toEqual({ license: "MIT", "share-files": true });

    expect((await gql('mutation { deleteEmojiPack(name: "gq") }', ann)).errors?.[0]?.message).toMatch(/not authorized/i);
    expect((await gql('mutation { deleteEmojiPack(name: "gq") }', root)).data).toEqual({ deleteEmojiPack: true });
    expect(fs.existsSync(path.join(packsDir(server), "gq"))).toBe(false);
    expect((await gql('mutation { deleteEmojiPack(name: "gq") }', root)).errors[0].extensions.code).toBe("NOT_FOUND");
  });
});
