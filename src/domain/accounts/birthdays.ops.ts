// The family's birthday reminders: accounts the viewer follows whose birthday (shown to others) falls
// on the given day of the given month.
import { z } from "zod";
import { Prisma, type Account } from "../../generated/prisma/client.ts";
import { requireAccount } from "../auth/policy.ts";
import { int } from "../inputs.ts";
import { operation } from "../operation.ts";

export const listBirthdays = operation({
  name: "accounts.birthdays",
  access: { scopes: ["read:accounts"] },
  input: z.object({ day: int().pipe(z.number().min(1).max(31)), month: int().pipe(z.number().min(1).max(12)) }),
  authorize: requireAccount,
  async run(ctx, input): Promise<Account[]> {
    const me = ctx.viewer.account!.id;
    const ids = await ctx.db.$queryRaw<{ id: string }[]>(Prisma.sql`
      SELECT a.id FROM accounts a
      JOIN follows f ON f.following_id = a.id AND f.follower_id = ${me} AND f.state = 'accept'
      WHERE a.show_birthday AND NOT a.deactivated AND a.birthday IS NOT NULL
        AND EXTRACT(DAY FROM a.birthday) = ${input.day} AND EXTRACT(MONTH FROM a.birthday) = ${input.month}
      ORDER BY a.nickname`);
    if (ids.length === 0) return [];
    const rows = new Map((await ctx.db.account.findMany({ where: { id: { in: ids.map((r) => r.id) } } })).map((a) => [a.id, a]));
    return ids.flatMap((r) => rows.get(r.id) ?? []);
  },
});
