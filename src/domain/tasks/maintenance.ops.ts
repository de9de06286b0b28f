// Database maintenance for operators (ctl db vacuum): VACUUM ANALYZE reclaims the space of deleted rows and
// refreshes the planner's statistics. It cannot run inside a transaction, so it is a plain statement.
import { z } from "zod";
import { requireAdmin } from "../auth/policy.ts";
import { operation } from "../operation.ts";

export const vacuumDatabase = operation({
  name: "maintenance.vacuum",
  input: z.object({ full: z.boolean().default(false) }),
  authorize: requireAdmin,
  async run(ctx, input): Promise<{ statement: string; ms: number }> {
    // FULL rewrites every table under an exclusive lock: only when asked
    const statement = input.full ? "VACUUM (FULL, ANALYZE)" : "VACUUM (ANALYZE)";
    const started = Date.now();
    await ctx.db.$executeRawUnsafe(statement);
    return { statement, ms: Date.now() - started };
  },
});
