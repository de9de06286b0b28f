// Tags are shared rows, made known by whoever names one first: a post, an edit, a follow or a feature of
// the tag, from any number of requests at once. Find-then-create (or Prisma's upsert, which does that
// when it cannot use ON CONFLICT) lets two first uses both miss and one fail on the unique name, a 500;
// here the database decides, in one statement.
import { newId } from "../../db/ids.ts";
import type { Tag } from "../../generated/prisma/client.ts";
import type { Ctx } from "../context.ts";

/** The tags named `names` (lower-cased), created when new: one statement however many, race-free. */
export async function upsertTags(ctx: Ctx, names: readonly string[]): Promise<Tag[]> {
  const unique = [...new Set(names)];
  if (!unique.length) return [];
  // DO UPDATE (a no-op write) rather than DO NOTHING, so existing tags come back in RETURNING too
  const rows = await ctx.db.$queryRaw<Tag[]>`
    INSERT INTO tags (id, name) SELECT * FROM unnest(${unique.map(() => newId())}::text[], ${unique}::text[])
    ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name RETURNING id, name`;
  const byName = new Map(rows.map((t) => [t.name, t]));
  return unique.map((name) => byName.get(name)!);
}
