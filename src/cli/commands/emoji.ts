// ctl emoji …: emoji packs (src/trpc/ctl-ops.ts, "emoji.*").
import path from "node:path";
import { int, need, str, type Command } from "../command.ts";

interface PackView {
  files: Record<string, string>;
  files_count: number;
  pack: Record<string, unknown>;
}

export const emojiCommands: Record<string, Command> = {
  list: {
    usage: "[--remote <instance url>] [--page <n>] [--page-size <n>]",
    summary: "lists this instance's packs, or another instance's with --remote",
    async run(inv) {
      const r = await (await inv.backend()).call<{ packs: Record<string, PackView>; count: number }>("emoji.list", { remote: str(inv, "remote"), page: int(inv, "page"), page_size: int(inv, "page-size") });
      inv.out.result(r, () => [...Object.entries(r.packs).map(([name, p]) => `${name}  ${p.files_count} emoji${p.pack?.description ? `  ${p.pack.description}` : ""}`), `${r.count} pack(s)`]);
    },
  },
  show: {
    usage: "<pack> [--page <n>] [--page-size <n>]",
    summary: "shows a pack and its emoji",
    async run(inv) {
      const [name] = need(inv, 1, "<pack>");
      const p = await (await inv.backend()).call<PackView>("emoji.show", { name, page: int(inv, "page"), page_size: int(inv, "page-size") });
      inv.out.result(p, () => [`${name}: ${p.files_count} emoji`, ...Object.entries(p.files).map(([code, file]) => `:${code}:  ${file}`)]);
    },
  },
  get: {
    usage: "<instance url> <pack> [--as <local name>]",
    summary: "downloads a pack from another instance (its shared archive or fallback source)",
    async run(inv) {
      const [url, name] = need(inv, 2, "<instance url> <pack>");
      const r = await (await inv.backend()).call<{ name: string; files: number }>("emoji.get", { url, name, as: str(inv, "as") });
      inv.out.result(r, () => `downloaded pack ${r.name} (${r.files} emoji)`);
    },
  },
  import: {
    usage: "<folder> [--name <pack>]",
    summary: "copies a folder of images (and its emoji.txt) into a new pack on this machine",
    async run(inv) {
      const [folder] = need(inv, 1, "<folder>");
      const r = await (await inv.backend()).call<{ pack: string; files: number }>("emoji.import", { folder: path.resolve(folder), name: str(inv, "name") });
      inv.out.result(r, () => `imported pack ${r.pack} (${r.files} file(s))`);
    },
  },
};
