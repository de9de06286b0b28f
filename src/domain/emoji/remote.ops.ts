// Packs of another instance: list them, and download one (its shared archive, or its fallback-src)
// into a new local pack. Every request goes through the guarded fetcher; the remote's file map is
// untrusted input, validated like a request's before anything is written.
import { logAction } from "../moderation-log/log.ts";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { guardedFetch, type GuardedResponse } from "../../net/guarded-fetch.ts";
import { detectImageType } from "../../media/storage.ts";
import type { Ctx } from "../context.ts";
import { Conflict, DomainError, Invalid, UpstreamFailure } from "../../kernel/errors.ts";
import { int } from "../inputs.ts";
import { operation } from "../operation.ts";
import { sha256Hex } from "./archive.ts";
import { checkPackName, isValidFileName, META_KEYS, packDir, packFilePath, packsDir, SHORTCODE, withPackLock, writePack, type Pack, type PackMeta } from "./pack-store.ts";
import { PackFailure, reloadRegistry } from "./packs.ops.ts";
import { readZip } from "./zip.ts";

async function getJson<T>(ctx: Ctx, url: string, what: string): Promise<T> {
  const res: GuardedResponse = await guardedFetch(ctx, url, { headers: { accept: "application/json" } });
  if (!res.ok) throw new UpstreamFailure(`Could not fetch ${what} from ${url}: status ${res.status}`);
  try {
    return res.json<T>();
  } catch {
    throw new UpstreamFailure(`Could not fetch ${what} from ${url}: not JSON`);
  }
}

function baseOf(raw: string): URL {
  try {
    return new URL(raw.trim());
  } catch {
    throw Invalid(`Not a URL: ${raw}`);
  }
}

/**
 * The path word of the remote's own API, from its nodeinfo: ours when it is one of our servers
 * (`<ns>_api`), `pleroma` for the family's servers. 502 when it does not share packs.
 */
async function remoteNamespace(ctx: Ctx, base: URL): Promise<string> {
  const wellKnown = await getJson<{ links?: { href?: string }[] }>(ctx, new URL("/.well-known/nodeinfo", base).href, "nodeinfo");
  const href = wellKnown.links?.at(-1)?.href;
  if (typeof href !== "string") throw new UpstreamFailure("The requested instance does not support sharing emoji packs");
  const info = await getJson<{ metadata?: { features?: unknown } }>(ctx, new URL(href, base).href, "nodeinfo");
  const features = Array.isArray(info.metadata?.features) ? (info.metadata.features as unknown[]) : [];
  if (!features.includes("shareable_emoji_packs")) throw new UpstreamFailure("The requested instance does not support sharing emoji packs");
  const ns = ctx.settings.namespace;
  if (features.includes(`${ns}_api`)) return ns;
  if (features.includes("pleroma_api")) return "pleroma";
  throw new UpstreamFailure("The requested instance does not support sharing emoji packs");
}

const pagingInput = { page: int().pipe(z.number().min(1)).default(1), page_size: int().pipe(z.number().min(1)).default(50) };

/** The remote's pack list, as it answers it (`{packs, count}`). */
export const listRemotePacks = operation({
  name: "emoji.listRemotePacks",
  access: { scopes: ["admin:write"], privilege: "emoji_manage_emoji" },
  input: z.object({ url: z.string(), ...pagingInput }),
  async run(ctx, input): Promise<unknown> {
    const base = baseOf(input.url);
    const rns = await remoteNamespace(ctx, base);
    return getJson(ctx, new URL(`/api/v1/${rns}/emoji/packs?page=${input.page}&page_size=${input.page_size}`, base).href, "the emoji packs");
  },
});

interface RemotePack {
  files?: Record<string, unknown>;
  pack?: Record<string, unknown>;
}

/** The remote's file map, refused whole when one name could escape the pack folder. */
function remoteFiles(remote: RemotePack): Record<string, string> {
  const files: Record<string, string> = {};
  for (const [code, file] of Object.entries(remote.files ?? {})) {
    if (typeof file !== "string" || !SHORTCODE.test(code) || !isValidFileName(file))
      throw new UpstreamFailure(`Refused pack: unsafe shortcode or file name ${JSON.stringify(code)} → ${JSON.stringify(file)}`);
    files[code] = file;
  }
  return files;
}

/** The metadata worth keeping from a remote pack (the spec's keys with the right types). */
function remoteMeta(pack: Record<string, unknown> = {}): PackMeta {
  const meta: PackMeta = {};
  for (const key of META_KEYS) {
    const v = pack[key];
    if (key === "share-files" ? typeof v === "boolean" : typeof v === "string") (meta as Record<string, unknown>)[key] = v;
  }
  return meta;
}

/**
 * Copies the remote pack `name` as `as` (default `name`): its shared archive when it offers one
 * (checked against `download-sha256`), otherwise its `fallback-src` (checked against
 * `fallback-src-sha256` when given). Only the files its pack.json names are extracted, each an image.
 */
export const downloadPack = operation({
  name: "emoji.downloadPack",
  access: { scopes: ["admin:write"], privilege: "emoji_manage_emoji" },
  input: z.object({ url: z.string(), name: z.string(), as: z.string().optional().nullable() }),
  async run(ctx, input): Promise<Pack> {
    const localName = checkPackName(input.as || input.name);
    const dir = packDir(ctx.settings, localName);
    if (fs.existsSync(dir)) throw Conflict(`A pack named "${localName}" already exists`);
    const base = baseOf(input.url);
    const rns = await remoteNamespace(ctx, base);
    const remote = await getJson<RemotePack>(ctx, new URL(`/api/v1/${rns}/emoji/pack?name=${encodeURIComponent(input.name)}&page_size=100000`, base).href, `the pack ${input.name}`);
    const files = remoteFiles(remote);
    const info = remote.pack ?? {};

    let source: { url: string; sha?: string };
    if (info["share-files"] === true && info["can-download"] === true && typeof info["download-sha256"] === "string")
      source = { url: new URL(`/api/v1/${rns}/emoji/packs/archive?name=${encodeURIComponent(input.name)}`, base).href, sha: info["download-sha256"] };
    else if (typeof info["fallback-src"] === "string")
      source = { url: info["fallback-src"], sha: typeof info["fallback-src-sha256"] === "string" && info["fallback-src-sha256"] ? info["fallback-src-sha256"] : undefined };
    else throw new UpstreamFailure("The pack was not set as shared and there is no fallback src to download from");

    const archive = await guardedFetch(ctx, source.url);
    if (!archive.ok) throw new UpstreamFailure(`Could not download the pack archive ${source.url}: status ${archive.status}`);
    if (source.sha && sha256Hex(archive.body) !== source.sha.toUpperCase()) throw new UpstreamFailure("SHA256 for the pack doesn't match the one sent by the server");

    const wanted = new Set(Object.values(files));
    let contents: Map<string, Uint8Array>;
    try {
      contents = readZip(archive.body, (n) => wanted.has(n), ctx.config.get("http", "max_body_bytes") * 4);
    } catch (error) {
      throw new UpstreamFailure(error instanceof DomainError ? error.message : String(error));
    }
    for (const file of wanted) {
      const data = contents.get(file);
      if (!data) throw new UpstreamFailure(`The pack archive does not have the file ${file} named in pack.json`);
      if (!detectImageType(Buffer.from(data))) throw new UpstreamFailure(`The pack archive's file ${file} is not an image`);
    }

    const done = await withPackLock(ctx.settings, async () => {
      fs.mkdirSync(packsDir(ctx.settings), { recursive: true });
      try {
        fs.mkdirSync(dir);
      } catch {
        throw Conflict(`A pack named "${localName}" already exists`);
      }
      const pack: Pack = { name: localName, dir, files, pack: remoteMeta(info) };
      try {
        for (const [file, data] of contents) {
          const target = packFilePath(pack, file);
          fs.mkdirSync(path.dirname(target), { recursive: true });
          fs.writeFileSync(target, data);
        }
        writePack(pack);
      } catch (error) {
        fs.rmSync(dir, { recursive: true, force: true });
        throw error instanceof DomainError ? error : new PackFailure(`Could not write the pack ${localName}: ${(error as Error).message}`);
      }
      reloadRegistry(ctx);
      return pack;
    });
    await logAction(ctx, { action: "emoji_pack_download", pack: localName });
    return done;
  },
});
