// ctl config (dump, load, migrate) and ctl emoji (import, list, show, get) through a running server.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { systemCtx } from "../../src/domain/context.ts";
import { updatePackMetadata } from "../../src/domain/emoji/packs.ops.ts";
import { freePort } from "../rest/emoji-helpers.ts";
import { json, runCtl } from "../support/ctl.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

describe("ctl config and emoji against a running server", () => {
  let server: TestServer;
  let env: Record<string, string>;
  let scratch: string;
  beforeAll(async () => {
    // its own address as BASE_URL: `emoji get` fetches packs from this very server as from another instance
    const port = await freePort();
    server = await startTestServer("pglite", { CONFIGURABLE_FROM_DATABASE: "true", ALLOW_PRIVATE_FETCH: "true", PORT: String(port), BASE_URL: `http://127.0.0.1:${port}` });
    env = { DATA_DIR: server.dataDir };
    scratch = fs.mkdtempSync(path.join(server.dataDir, "scratch-"));
  });
  afterAll(() => server?.close());

  test("config migrate stores a family config.exs-style JSON through the config operation", async () => {
    const file = path.join(scratch, "family.json");
    fs.writeFileSync(file, JSON.stringify({ ":pleroma": { ":instance": { name: "Migrated Place", limit: 7000 } } }));
    const dry = await runCtl(env, "config", "migrate", file, "--dry-run", "--json");
    expect(json(dry)).toEqual({ configs: [{ group: ":pleroma", key: ":instance", value: [{ tuple: [":name", "Migrated Place"] }, { tuple: [":limit", 7000] }] }] });
    expect(await server.services.db.configEntry.count()).toBe(0);

    const r = await runCtl(env, "config", "migrate", file);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("stored 1 setting(s)");
    expect(server.services.config.get("instance", "name")).toBe("Migrated Place");
    expect(server.services.config.get("instance", "limit")).toBe(7000);
    expect(await server.services.db.moderationLogEntry.count({ where: { action: "config_update" } })).toBe(1);
  });

  test("config dump prints JSON that config load takes back", async () => {
    const dump = await runCtl(env, "config", "dump", "--only-db");
    const doc = JSON.parse(dump.stdout);
    expect(doc.configs).toHaveLength(1);
    doc.configs[0].value = [{ tuple: [":name", "Loaded Place"] }];
    const file = path.join(scratch, "dump.json");
    fs.writeFileSync(file, JSON.stringify(doc));
    expect((await runCtl(env, "config", "load", file)).code).toBe(0);
    expect(server.services.config.get("instance", "name")).toBe("Loaded Place");
    expect(server.services.config.get("instance", "limit")).toBe(7000); // merged, as the family merges keyword lists

    const bad = path.join(scratch, "bad.json");
    fs.writeFileSync(bad, JSON.stringify({ ":pleroma": {} }));
    const refused = await runCtl(env, "config", "load", bad);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("expected {configs: [...]} or [{group, key, value}]");
  });

  test("emoji import copies a folder into a pack; list and show read it", async () => {
    const folder = path.join(scratch, "blobs");
    fs.mkdirSync(path.join(folder, "more"), { recursive: true });
    fs.writeFileSync(path.join(folder, "blobcat.png"), PNG);
    fs.writeFileSync(path.join(folder, "more", "blobfox.png"), PNG);
    fs.writeFileSync(path.join(folder, "notes.txt"), "not an emoji");

    const r = await runCtl(env, "emoji", "import", folder);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("imported pack blobs (2 file(s))");
    const packDir = path.join(server.dataDir, "emoji", "packs", "blobs");
    expect(fs.existsSync(path.join(packDir, "pack.json"))).toBe(true);
    expect(fs.existsSync(path.join(packDir, "notes.txt"))).toBe(false);

    const list = json(await runCtl(env, "emoji", "list", "--json"));
    expect(list.count).toBe(1);
    expect(list.packs.blobs.files).toEqual({ blobcat: "blobcat.png", blobfox: "more/blobfox.png" });
    expect((await runCtl(env, "emoji", "show", "blobs")).stdout).toContain(":blobfox:  more/blobfox.png");
    const again = await runCtl(env, "emoji", "import", folder);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('A pack named "blobs" already exists');
  });

  test("emoji get downloads a shared pack from another instance; an unshared one is refused (exit 1)", async () => {
    const refused = await runCtl(env, "emoji", "get", server.url, "blobs", "--as", "copy");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("not set as shared");

    await updatePackMetadata(systemCtx(server.services), { name: "blobs", metadata: { "share-files": true } });
    const r = await runCtl(env, "emoji", "get", server.url, "blobs", "--as", "copy");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("downloaded pack copy (2 emoji)");
    expect(fs.readFileSync(path.join(server.dataDir, "emoji", "packs", "copy", "more", "blobfox.png"))).toEqual(PNG);
    expect(json(await runCtl(env, "emoji", "list", "--remote", server.url, "--json")).count).toBe(2);
  });
});
