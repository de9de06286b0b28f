// Per-application settings (the family's `/api/v1/<ns>/settings/:app`): one JSON object per app name
// in the account's settings store, the same store `<ns>.settings_store` shows to its owner.
import { z } from "zod";
import type { Prisma } from "../../generated/prisma/client.ts";
import { requireAccount } from "../auth/policy.ts";
import { operation } from "../operation.ts";
import { announceRowWrites } from "../../db/row-writes.ts";

type Store = Record<string, Record<string, unknown>>;

const appName = z.string().trim().min(1).max(255);

export const getAppSettings = operation({
  name: "accounts.appSettings.get",
  access: { scopes: ["read:accounts"] },
  input: z.object({ app: appName }),
  authorize: requireAccount,
  async run(ctx, input): Promise<Record<string, unknown>> {
    const store = (ctx.viewer.account!.settingsStore ?? {}) as Store;
    return store[input.app] ?? {};
  },
});

/**
 * Merges the given keys into the app's settings (a `null` value removes its key), as the family does,
 * and answers the app's settings. One statement: `jsonb_set` on the stored object, so concurrent
 * changes to other apps are kept.
 */
export const updateAppSettings = operation({
  name: "accounts.appSettings.update",
  access: { scopes: ["write:accounts"] },
  input: z.object({ app: appName, settings: z.record(z.string(), z.unknown()) }),
  authorize: requireAccount,
  async run(ctx, input): Promise<Record<string, unknown>> {
    const id = ctx.viewer.account!.id;
    const removed = Object.keys(input.settings).filter((k) => input.settings[k] === null);
    const added = Object.fromEntries(Object.entries(input.settings).filter(([, v]) => v !== null));
    const rows = await ctx.db.$queryRaw<{ settings: Record<string, unknown> }[]>`
      UPDATE accounts
      SET settings_store = jsonb_set(
        CASE WHEN jsonb_typeof(settings_store) = 'object' THEN settings_store ELSE '{}'::jsonb END,
        ARRAY[${input.app}],
        ((CASE WHEN jsonb_typeof(settings_store -> ${input.app}) = 'object' THEN settings_store -> ${input.app} ELSE '{}'::jsonb END
          || ${JSON.stringify(added)}::jsonb) - ${removed}::text[])
      )
      WHERE id = ${id}
      RETURNING settings_store -> ${input.app} AS settings`;
    announceRowWrites(ctx.db, "accounts", [id]); // raw SQL: the token cache must hear of it (row-writes.ts)
    return (rows[0]?.settings ?? {}) as Prisma.JsonObject;
  },
});
