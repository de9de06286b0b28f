// The instance's custom emoji, held in memory per process and per data folder (tests run several
// servers in one process). Loaded from the packs on disk at start-up, on first use by a context built
// elsewhere, and again after every pack change or an admin's reload.
import fs from "node:fs";
import type { Bus } from "../../realtime/bus.ts";
import type { Settings } from "../../config/env.ts";
import { inside, isValidFileName, packNames, readPack, SHORTCODE } from "./pack-store.ts";

export interface CustomEmoji {
  shortcode: string;
  /** the pack it comes from (the reference API's `category`) */
  pack: string;
  /** file name inside the pack folder */
  file: string;
  /** the image's path under the base URL: /emoji/packs/<pack>/<file> */
  path: string;
  tags: string[];
}

const registries = new Map<string, Map<string, CustomEmoji>>();

export function emojiPath(pack: string, file: string): string {
  return `/emoji/packs/${encodeURIComponent(pack)}/${file.split("/").map(encodeURIComponent).join("/")}`;
}

/**
 * Scans the packs. A shortcode found in two packs keeps the first pack's image (packs in name order);
 * entries with unsafe names or missing files are left out, and a pack whose pack.json is unreadable is skipped.
 */
export function loadEmojiRegistry(settings: Pick<Settings, "dataDir">): Map<string, CustomEmoji> {
  const map = new Map<string, CustomEmoji>();
  for (const name of packNames(settings)) {
    let pack;
    try {
      pack = readPack(settings, name);
    } catch (error) {
      console.error(`emoji pack ${name}: unreadable pack.json (${(error as Error).message})`);
      continue;
    }
    if (!pack) continue;
    for (const [shortcode, file] of Object.entries(pack.files).sort(([a], [b]) => (a < b ? -1 : 1))) {
      if (map.has(shortcode) || !SHORTCODE.test(shortcode) || !isValidFileName(file)) continue;
      if (!fs.existsSync(inside(pack.dir, file))) continue;
      map.set(shortcode, { shortcode, pack: name, file, path: emojiPath(name, file), tags: [`pack:${name}`] });
    }
  }
  registries.set(settings.dataDir, map);
  return map;
}

/** The custom emoji of this process, by shortcode. */
export function emojiRegistry(ctx: { settings: Pick<Settings, "dataDir"> }): ReadonlyMap<string, CustomEmoji> {
  return registries.get(ctx.settings.dataDir) ?? loadEmojiRegistry(ctx.settings);
}

/** The absolute URL of an emoji's image. */
export function emojiUrl(ctx: { settings: Pick<Settings, "baseUrl"> }, emoji: Pick<CustomEmoji, "path">): string {
  return ctx.settings.baseUrl + emoji.path;
}

/** Rescans the packs whenever a process changed them (its own changes come back too: a harmless second scan). */
export function followEmojiChanges(bus: Bus, settings: Pick<Settings, "dataDir">): () => Promise<void> {
  const changes = bus.subscribe("emoji_changed");
  const rescan = () => {
    try {
      loadEmojiRegistry(settings);
    } catch (error) {
      console.error("custom emoji reload failed:", error);
    }
  };
  void (async () => {
    for await (const _ of changes) rescan();
  })();
  // a change announced while Redis was away (or before the first SUBSCRIBE took effect) was missed: scan again once it is
  const stopGaps = bus.onGap((down) => void (down || rescan()));
  return async () => {
    stopGaps();
    await changes.return();
  };
}
