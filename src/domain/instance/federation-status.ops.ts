// GET /api/v1/<ns>/federation_status: the instances this server has given up reaching, as the family
// reports them (`{unreachable: {host: since}}`). An instance counts once its failures have lasted the
// family's `federation_reachability_timeout_days` (7); delivery records them in `instances`.
import { z } from "zod";
import { operation } from "../operation.ts";

export const UNREACHABLE_AFTER_DAYS = 7;

export const federationStatus = operation({
  name: "instance.federationStatus",
  access: "public",
  input: z.object({}),
  async run(ctx): Promise<{ unreachable: Record<string, string> }> {
    const before = new Date(ctx.clock().getTime() - UNREACHABLE_AFTER_DAYS * 24 * 60 * 60 * 1000);
    const rows = await ctx.db.instance.findMany({ where: { unreachableSince: { lte: before } }, orderBy: { domain: "asc" }, select: { domain: true, unreachableSince: true } });
    return { unreachable: Object.fromEntries(rows.map((r) => [r.domain, r.unreachableSince!.toISOString()])) };
  },
});
