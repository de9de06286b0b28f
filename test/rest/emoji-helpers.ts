// Shared helpers of the custom emoji tests: images, packs written straight to disk, requests (the people
// come from test/support/actors.ts).
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import type { User } from "../support/actors.ts";
import type { TestServer } from "../support/server.ts";

export const PNG = fs.readFileSync("src/media/assets/avi.png");
export const GIF = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");

export const packsDir = (server: TestServer) => path.join(server.dataDir, "emoji", "packs");

/** Writes a pack folder by hand (as an operator copying files would): pack.json and the image files. */
export function writePackOnDisk(server: TestServer, name: string, files: Record<string, string>, meta: Record<string, unknown> = {}, image: Buffer = PNG) {
  const dir = path.join(packsDir(server), name);
  fs.mkdirSync(dir, { recursive: true });
  for (const file of Object.values(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), image);
  }
  fs.writeFileSync(path.join(dir, "pack.json"), JSON.stringify({ files, pack: meta }));
}

/** A request; resolves to status, JSON body (or text) and headers. */
export async function call(server: TestServer, who: User | null, method: string, url: string, json?: unknown) {
  const res = await server.fetch(url, { method, headers: who ? who.auth : {}, ...(json !== undefined ? { json } : {}) });
  const text = await res.text();
  let body: any = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {}
  return { status: res.status, body, headers: res.headers };
}

/** A port nobody listens on right now (for a server whose BASE_URL must name its real address). */
export async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  const { port } = srv.address() as net.AddressInfo;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}
