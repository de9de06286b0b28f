// The shared fixture the replayed calls run against: one server under the pleroma profile, an admin,
// two users with tokens, and helpers that create (through the API, as the clients do) the data a call
// needs — each case makes its own objects, so destructive calls do not disturb the others.
import net from "node:net";
import sharp from "sharp";
import { ADMIN_SCOPES, user, USER_SCOPES, type Role } from "../../support/actors.ts";
import { registerApp, startTestServer, type TestServer } from "../../support/server.ts";

export interface Reply {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  headers: Headers;
}

export interface Request {
  method: string;
  path: string;
  token?: string;
  json?: unknown;
  form?: Record<string, string>;
  multipart?: FormData;
}

export type Vars = Record<string, string>;

export class Fixture {
  admin = { id: "", token: "" };
  alice = { id: "", token: "" };
  bob = { id: "", token: "" };
  private seq = 0;
  constructor(readonly server: TestServer) {}

  static async start(env: Record<string, string>): Promise<Fixture> {
    // the public URL is the real one: emoji packs are fetched from this server by its own URL (nodeinfo links)
    const port = await freePort();
    const server = await startTestServer("pglite", { CONFIGURABLE_FROM_DATABASE: "true", PORT: String(port), BASE_URL: `http://127.0.0.1:${port}`, ...env });
    const f = new Fixture(server);
    f.admin = await f.user("admin", { admin: true }, ADMIN_SCOPES);
    f.alice = await f.user("alice");
    f.bob = await f.user("bob");
    return f;
  }

  /** a unique word, for nicknames, pack names, list titles */
  unique(prefix: string) {
    return `${prefix}${++this.seq}`;
  }

  async user(nickname: string, roles: Role = {}, scope = USER_SCOPES) {
    const { id, token } = await user(this.server, nickname, scope, roles);
    return { id, nickname, token };
  }

  /** a fresh user the case may deactivate, delete, tag… */
  fresh(roles: Role = {}) {
    return this.user(this.unique("user"), roles);
  }

  async send(req: Request): Promise<Reply> {
    const headers: Record<string, string> = req.token ? { authorization: `Bearer ${req.token}` } : {};
    const res = await this.server.fetch(req.path, {
      method: req.method,
      headers,
      ...(req.json !== undefined ? { json: req.json } : {}),
      ...(req.form ? { form: req.form } : {}),
      ...(req.multipart ? { body: req.multipart } : {}),
    });
    const text = await res.text();
    let body: unknown = text;
    if (res.headers.get("content-type")?.includes("json") && text) body = JSON.parse(text);
    return { status: res.status, body, headers: res.headers };
  }

  /** a call that must succeed (set-up), its body */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async ok(method: string, path: string, token: string, json?: unknown): Promise<any> {
    const r = await this.send({ method, path, token, json });
    if (r.status >= 300) throw new Error(`set-up ${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  }

  async post(token: string, status: string, extra: Record<string, unknown> = {}): Promise<string> {
    return (await this.ok("POST", "/api/v1/statuses", token, { status, ...extra })).id;
  }

  async follow(token: string, id: string) {
    await this.ok("POST", `/api/v1/accounts/${id}/follow`, token, {});
  }

  /** a report by bob against alice (about one of her statuses) */
  async report(): Promise<string> {
    const statusId = await this.post(this.alice.token, "reportable");
    return (await this.ok("POST", "/api/v1/reports", this.bob.token, { account_id: this.alice.id, status_ids: [statusId], comment: "spam" })).id;
  }

  /** a chat between alice and bob with one message from alice */
  async chat() {
    const chat = await this.ok("POST", `/api/v1/pleroma/chats/by-account-id/${this.bob.id}`, this.alice.token, {});
    const message = await this.ok("POST", `/api/v1/pleroma/chats/${chat.id}/messages`, this.alice.token, { content: "hello bob" });
    return { chat: chat.id as string, message: message.id as string };
  }

  /** a list of alice's */
  async list(): Promise<string> {
    return (await this.ok("POST", "/api/v1/lists", this.alice.token, { title: this.unique("list") })).id;
  }

  /** an emoji pack with one file, made through the admin API */
  async pack(): Promise<string> {
    const name = this.unique("pack");
    await this.ok("POST", `/api/v1/pleroma/emoji/pack?name=${name}`, this.admin.token);
    const form = new FormData();
    form.set("shortcode", `${name}_blob`);
    form.set("filename", `${name}_blob.png`);
    form.set("file", new Blob([await png()], { type: "image/png" }), "blob.png");
    const r = await this.send({ method: "POST", path: `/api/v1/pleroma/emoji/packs/files?name=${name}`, token: this.admin.token, multipart: form });
    if (r.status !== 200) throw new Error(`set-up pack file: ${r.status} ${JSON.stringify(r.body)}`);
    return name;
  }

  async media(token = this.alice.token): Promise<string> {
    return (await this.upload("/api/v1/media", token)).body.id;
  }

  async upload(path: string, token: string, method = "POST", description = "a red square") {
    const form = new FormData();
    form.set("file", new Blob([await png()], { type: "image/png" }), "square.png");
    form.set("description", description);
    return this.send({ method, path, token, multipart: form });
  }

  /** sets a runtime setting as the admin's settings screen would, and reloads */
  async setting(group: string, key: string, value: unknown) {
    const db = this.server.services.db;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    await db.configEntry.upsert({ where: { group_key: { group, key } }, create: { group, key, value: value as any }, update: { value: value as any } });
    await this.server.services.config.reload();
  }

  async app() {
    return registerApp(this.server);
  }
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });

let image: Uint8Array<ArrayBuffer> | undefined;
/** a small real PNG */
export async function png(): Promise<Uint8Array<ArrayBuffer>> {
  image ??= new Uint8Array(await sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 200, g: 20, b: 20 } } }).png().toBuffer());
  return image;
}
