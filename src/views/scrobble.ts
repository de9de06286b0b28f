// The family's Scrobble: `{id, account, created_at, title, artist, album, externalLink, length}`.
import type { Ctx } from "../../src/domain/context.ts";
import type { Account, Scrobble } from "../../src/generated/prisma/client.ts";
import { renderAccount } from "./account.ts";

export async function renderScrobbles(ctx: Ctx, account: Account, scrobbles: Scrobble[]) {
  if (scrobbles.length === 0) return [];
  const rendered = await renderAccount(ctx, account);
  return scrobbles.map((s) => ({
    id: s.id,
    account: rendered,
    created_at: s.createdAt.toISOString(),
    title: s.title,
    artist: s.artist,
    album: s.album,
    externalLink: s.externalLink,
    length: s.length,
  }));
}
