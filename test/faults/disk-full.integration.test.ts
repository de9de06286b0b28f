// A full disk during an upload: 507 with a message, no partial file left, nothing recorded; the server
// goes on, and uploads work again once there is room. The data directory is a 3 MiB tmpfs (needs root,
// as the federation tests do); the database is PostgreSQL elsewhere. Real process.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { freshDatabase } from "../support/databases.ts";
import { PROCESS_ADMIN_TOKEN, spawnServer, usersOn, type ServerProcess } from "../support/processes.ts";

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });
const PNG = fs.readFileSync("src/media/assets/avi.png");
/** a 1×1 GIF */
const GIF = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");
const canMount = process.getuid?.() === 0;

/** Every file under `dir`, relative. */
const filesUnder = (dir: string): string[] =>
  fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name))) : [];

describe.skipIf(!canMount)("disk full during an upload", () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let server: ServerProcess;
  const mountPoint = fs.mkdtempSync(path.join(os.tmpdir(), "ext-full-"));
  beforeAll(async () => {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=3m", "tmpfs", mountPoint]);
    db = await freshDatabase("postgres");
    server = await spawnServer({ DATABASE_URL: db.url, ADMIN_TOKEN: PROCESS_ADMIN_TOKEN, DATA_DIR: mountPoint });
  });
  afterAll(async () => {
    await server?.signal("SIGTERM");
    execFileSync("umount", ["-l", mountPoint]);
    fs.rmSync(mountPoint, { recursive: true, force: true });
    await db?.drop();
  });

  test("507 with a message and no partial file; uploads work again with room", async () => {
    const { alice } = await usersOn(server.url, ["alice"]);
    const upload = async (bytes: Buffer) => {
      const form = new FormData();
      form.append("file", new Blob([new Uint8Array(bytes)], { type: "image/png" }), "big.png");
      const res = await fetch(`${server.url}/api/v1/media`, { method: "POST", headers: alice.auth, body: form });
      return { status: res.status, body: await res.json() };
    };
    const uploads = path.join(mountPoint, "uploads");
    const before = filesUnder(uploads);
    // a GIF padded past the free space (readers ignore what follows its trailer): GIFs are stored as
    // uploaded, where a PNG would be re-encoded small (docs/media.md)
    const big = Buffer.concat([GIF, Buffer.alloc(4 * 1024 * 1024)]);
    const full = await upload(big);
    expect(full.status, JSON.stringify(full.body)).toBe(507);
    expect(full.body).toEqual({ error: expect.stringMatching(/disk is full/) });
    expect(filesUnder(uploads)).toEqual(before);
    const rows = await fetch(`${server.url}/api/v1/ext/admin/media?local_only=true`, { headers: { "x-admin-token": PROCESS_ADMIN_TOKEN } }).catch(() => null);
    if (rows?.status === 200) expect(JSON.stringify(await rows.json())).not.toContain("big.png");

    // the process goes on: a small upload fits
    const small = await upload(PNG);
    expect(small.status).toBe(200);
    expect(filesUnder(uploads).length).toBe(before.length + 2); // the image and its preview
    expect(server.child.exitCode).toBe(null);
  });
});
