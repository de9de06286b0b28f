// `ctl emoji import <folder>`: copies a folder of emoji images (the operator's own, on this machine) into
// the packs directory as a new pack, then imports it as the admin API's import does (a pack.json is
// written for it, from its emoji.txt when it has one). Only images and emoji.txt are copied.
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { requirePrivilege } from "../auth/policy.ts";
import { Conflict, Invalid } from "../../kernel/errors.ts";
import { operation } from "../operation.ts";
import { importPacks } from "./packs.ops.ts";
import { packDir } from "./pack-store.ts";

const IMAGE = /\.(png|gif|jpe?g|webp|svg|avif)$/i;

export const importPackFolder = operation({
  name: "emoji.importFolder",
  input: z.object({ folder: z.string().min(1), name: z.string().optional() }),
  authorize: (ctx) => requirePrivilege(ctx, "emoji_manage_emoji"),
  async run(ctx, input): Promise<{ pack: string; files: number; imported: string[] }> {
    const source = path.resolve(input.folder);
    if (!fs.statSync(source, { throwIfNoEntry: false })?.isDirectory()) throw Invalid(`Not a folder: ${source}`);
    const name = input.name ?? path.basename(source);
    const dir = packDir(ctx.settings, name);
    if (fs.existsSync(dir)) throw Conflict(`A pack named "${name}" already exists`);
    const files = fs.readdirSync(source, { recursive: true, encoding: "utf8" }).filter((f) => (IMAGE.test(f) || f === "emoji.txt") && fs.statSync(path.join(source, f)).isFile());
    if (!files.some((f) => IMAGE.test(f))) throw Invalid(`No emoji images in ${source}`);
    for (const file of files) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.copyFileSync(path.join(source, file), path.join(dir, file));
    }
    const imported = await importPacks(ctx, {});
    return { pack: name, files: files.length, imported };
  },
});
