// Instance documents: HTML pages the frontends show (the instance panel, the terms of service, the privacy policy). An
// admin upload is stored under DATA_DIR/static at the path it is served from; without one, the built-in
// default is served. The names and paths are the family's.
import fs from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import type { Ctx } from "../context.ts";
import { Invalid, NotFound } from "../../kernel/errors.ts";
import { operation } from "../operation.ts";

/** document name → the path it is served at */
export const INSTANCE_DOCUMENTS: Record<string, string> = {
  "instance-panel": "/instance/panel.html",
  "terms-of-service": "/static/terms-of-service.html",
  // ours: the reference's `/api/v1/instance/privacy_policy` (the family keeps none)
  "privacy-policy": "/static/privacy-policy.html",
};

const DEFAULTS: Record<string, string> = {
  "instance-panel": "<p>Welcome to this instance. The administrator can replace this panel in the admin interface.</p>\n",
  "terms-of-service": "<h4>Terms of service</h4>\n<p>The administrator has not written the terms of service of this instance yet.</p>\n",
  "privacy-policy": "<h4>Privacy policy</h4>\n<p>The administrator has not written the privacy policy of this instance yet.</p>\n",
};

const MAX_BYTES = 1024 * 1024;

const nameInput = z.object({ name: z.string() });

/** A name from the request: only the documents' own keys, never `constructor` or `__proto__` of the object. */
function servedPath(name: string): string {
  if (!Object.hasOwn(INSTANCE_DOCUMENTS, name)) throw NotFound();
  return INSTANCE_DOCUMENTS[name]!;
}

const storedFile = (ctx: Ctx, served: string) => path.join(ctx.settings.dataDir, "static", served);

/** The document's HTML: the admin's upload, or the built-in default. */
export async function documentContent(ctx: Ctx, name: string): Promise<string> {
  const served = servedPath(name);
  try {
    return await fs.readFile(storedFile(ctx, served), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    return DEFAULTS[name]!;
  }
}

const documentUrl = (ctx: Ctx, name: string) => ctx.settings.baseUrl + servedPath(name);

export const showDocument = operation({
  name: "showInstanceDocument",
  access: { scopes: ["admin:read"], role: "admin" },
  input: nameInput,
  run: (ctx, { name }) => documentContent(ctx, name),
});

export const updateDocument = operation({
  name: "updateInstanceDocument",
  access: { scopes: ["admin:write"], role: "admin" },
  input: nameInput.extend({ content: z.instanceof(Buffer).optional() }),
  async run(ctx, { name, content }) {
    const file = storedFile(ctx, servedPath(name));
    if (!content) throw Invalid("Missing field: file.");
    if (content.length > MAX_BYTES) throw Invalid(`The document is larger than ${MAX_BYTES} bytes`);
    // a document is shown as HTML by the frontends: refuse binary uploads
    const text = content.toString("utf8");
    if (text.includes("\u0000") || text.includes("\uFFFD")) throw Invalid("The document must be UTF-8 text (HTML)");
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, text);
    return { url: documentUrl(ctx, name) };
  },
});

export const deleteDocument = operation({
  name: "deleteInstanceDocument",
  access: { scopes: ["admin:write"], role: "admin" },
  input: nameInput,
  async run(ctx, { name }) {
    await fs.rm(storedFile(ctx, servedPath(name)), { force: true });
    return { url: documentUrl(ctx, name) };
  },
});

/** A document as the reference API publishes it (terms of service): its HTML and when it last changed (null: the built-in default). */
export const publicDocument = operation({
  name: "instance.document",
  access: "public",
  input: nameInput,
  async run(ctx, { name }): Promise<{ content: string; updatedAt: Date | null }> {
    const file = storedFile(ctx, servedPath(name));
    try {
      const [content, stat] = await Promise.all([fs.readFile(file, "utf8"), fs.stat(file)]);
      return { content, updatedAt: stat.mtime };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      return { content: DEFAULTS[name]!, updatedAt: null };
    }
  },
});
