// Frontends: the family's list of installable web clients and their installation from a build zip,
// either a file on the server or `build_url` fetched through the guarded fetcher. A build lands in
// DATA_DIR/frontends/<name>/<ref>; the zip's entries are checked so none can escape that folder.
import fs from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { guardedFetch } from "../../net/guarded-fetch.ts";
import type { Ctx } from "../context.ts";
import { DomainError, Invalid } from "../../kernel/errors.ts";
import { operation } from "../operation.ts";
import { readZip } from "../emoji/zip.ts";

export interface FrontendInfo {
  name: string;
  git: string;
  build_url: string;
  ref: string;
  build_dir?: string;
}

/** The family's catalogue of frontends (their default `frontends.available`). */
export const AVAILABLE_FRONTENDS: FrontendInfo[] = [
  {
    name: "pleroma-fe",
    git: "https://git.pleroma.social/pleroma/pleroma-fe",
    build_url: "https://git.pleroma.social/pleroma/pleroma-fe/-/jobs/artifacts/${ref}/download?job=build",
    ref: "develop",
  },
  {
    name: "admin-fe",
    git: "https://git.pleroma.social/pleroma/admin-fe",
    build_url: "https://git.pleroma.social/pleroma/admin-fe/-/jobs/artifacts/${ref}/download?job=build",
    ref: "develop",
  },
  {
    name: "fedi-fe",
    git: "https://git.pleroma.social/pleroma/fedi-fe",
    build_url: "https://git.pleroma.social/pleroma/fedi-fe/-/jobs/artifacts/${ref}/download?job=build_release",
    ref: "master",
    build_dir: "dist",
  },
  {
    name: "soapbox",
    git: "https://gitlab.com/soapbox-pub/soapbox",
    build_url: "https://gitlab.com/soapbox-pub/soapbox/-/jobs/artifacts/${ref}/download?job=build-production",
    ref: "main",
    build_dir: "static",
  },
];

const MAX_ZIP_BYTES = 100 * 1024 * 1024;
/** what a frontend build may expand to */
const MAX_UNZIPPED_BYTES = 500 * 1024 * 1024;
const SAFE_SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Why an installation failed; the route answers the family's `{error}` object. */
export class FrontendInstallError extends DomainError {
  constructor(message: string) {
    super("invalid", message);
  }
}

const frontendsDir = (ctx: Ctx) => path.join(ctx.settings.dataDir, "frontends");

async function installedRefs(ctx: Ctx, name: string): Promise<string[]> {
  const entries = await fs.readdir(path.join(frontendsDir(ctx), name), { withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
}

export const listFrontends = operation({
  name: "listFrontends",
  access: { scopes: ["admin:read"], role: "admin" },
  input: z.object({}),
  async run(ctx) {
    return Promise.all(
      AVAILABLE_FRONTENDS.map(async (f) => {
        const refs = await installedRefs(ctx, f.name);
        return { name: f.name, git: f.git, build_url: f.build_url, ref: f.ref, installed: refs.includes(f.ref), installed_refs: refs };
      }),
    );
  },
});

export const installFrontendInput = z.object({
  name: z.string().min(1),
  ref: z.string().optional(),
  /** a zip file on the server */
  file: z.string().optional(),
  build_url: z.string().optional(),
  build_dir: z.string().optional(),
});

export const installFrontend = operation({
  name: "installFrontend",
  access: { scopes: ["admin:write"], role: "admin" },
  input: installFrontendInput,
  async run(ctx, input) {
    const known = AVAILABLE_FRONTENDS.find((f) => f.name === input.name);
    const ref = input.ref ?? known?.ref;
    if (!SAFE_SEGMENT.test(input.name) || !ref || !SAFE_SEGMENT.test(ref)) throw Invalid("Could not install frontend: name and ref must be plain names");
    const zip = await obtainZip(ctx, input, known, ref);
    const buildDir = (input.build_dir ?? known?.build_dir ?? "dist").replace(/^\/+|\/+$/g, "");
    const files = buildFiles(zip, buildDir);
    const target = path.join(frontendsDir(ctx), input.name, ref);
    // unpack beside the target, then swap, so a failed install never leaves half a frontend behind
    const staging = `${target}.installing-${process.pid}-${Date.now()}`;
    try {
      for (const [name, data] of files) {
        const file = path.join(staging, name);
        await fs.mkdir(path.dirname(file), { recursive: true });
        await fs.writeFile(file, data);
      }
      await fs.rm(target, { recursive: true, force: true });
      await fs.rename(staging, target);
    } finally {
      await fs.rm(staging, { recursive: true, force: true });
    }
    return listFrontends(ctx, {});
  },
});

async function obtainZip(ctx: Ctx, input: z.infer<typeof installFrontendInput>, known: FrontendInfo | undefined, ref: string): Promise<Uint8Array> {
  if (input.file) {
    const data = await fs.readFile(input.file).catch(() => null);
    if (!data) throw new FrontendInstallError(`Could not install frontend: cannot read ${input.file}`);
    return data;
  }
  const url = (input.build_url ?? known?.build_url)?.replaceAll("${ref}", ref);
  if (!url) throw new FrontendInstallError("Could not install frontend: no build_url or file given for an unknown frontend");
  const res = await guardedFetch(ctx, url, { maxBytes: MAX_ZIP_BYTES });
  if (!res.ok) throw new FrontendInstallError(`Could not install frontend: ${url} answered ${res.status}`);
  return res.body;
}

/** Files a frontend archive may hold: a build (scripts, styles, fonts, source maps) holds far more than an emoji pack. */
const MAX_FRONTEND_FILES = 20_000;

/**
 * The files under `buildDir` in the zip, as relative paths. Any entry that is absolute or climbs out
 * with `..` makes the whole archive refused (zip-slip), not just skipped.
 */
export function buildFiles(zip: Uint8Array, buildDir: string, maxBytes = MAX_UNZIPPED_BYTES): [string, Uint8Array][] {
  // streamed and counted (a zip bomb is refused at MAX_UNZIPPED_BYTES); zip-slip refuses the archive
  const entries = readZip(zip, () => true, maxBytes, {
    maxEntries: MAX_FRONTEND_FILES,
    tooMany: (max) => new FrontendInstallError(`Could not install frontend: the archive holds more than ${max} files`),
    unsafe: (raw) => new FrontendInstallError(`Could not install frontend: the archive entry ${raw} points outside the frontend folder`),
    tooLarge: (max) => new FrontendInstallError(`Could not install frontend: the archive expands to more than ${max} bytes`),
    unreadable: () => new FrontendInstallError("Could not install frontend: the build is not a zip archive"),
  });
  const prefix = buildDir ? `${buildDir}/` : "";
  const files: [string, Uint8Array][] = [];
  for (const [name, data] of entries) {
    if (name.endsWith("/") || !name.startsWith(prefix)) continue;
    files.push([name.slice(prefix.length), data]);
  }
  if (!files.length) throw new FrontendInstallError(`Could not install frontend: the archive has no files under ${buildDir || "its root"}`);
  return files;
}
