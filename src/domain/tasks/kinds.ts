// What each long task does (src/domain/tasks/tasks.ops.ts runs them): `begin` checks and records the
// request when the task is created (as the admin route's operation does) and counts the work;
// `run` does it from `cursor`, reporting each batch through `progress`, and answers a result.
import { enforceAccess } from "../auth/access.ts";
import { z } from "zod";
import { storedHost } from "../../db/like.ts";
import { purgeInstance, purgeInstanceAccounts } from "../instances/instances.ops.ts";
import type { Ctx, Services } from "../context.ts";
import { Unprocessable } from "../../kernel/errors.ts";
import { actorOf, logAction, type Actor } from "../moderation-log/log.ts";
import { countPrunable, pruneBatch } from "./prune.ts";

type Progress = (delta: number, cursor?: string) => Promise<void>;

interface TaskKind<P extends z.ZodType> {
  params: P;
  /** the subject: one unfinished task per kind and key */
  key(params: z.output<P>): string;
  begin(ctx: Ctx, params: z.output<P>): Promise<{ params: unknown; total: number | null }>;
  run(services: Services, params: any, cursor: string | null, progress: Progress): Promise<unknown>;
}

const kind = <P extends z.ZodType>(k: TaskKind<P>) => k;
const host = z.string().trim().min(1).transform((h) => h.toLowerCase());
const remoteAccountsOf = (domain: string) => ({ local: false, domain: storedHost(domain) });

export const taskKinds = {
  /** DELETE /admin/instances/:instance as a task: the same authorization, log entry and batches */
  instance_purge: kind({
    params: z.object({ host }),
    key: (p) => p.host,
    async begin(ctx, p) {
      enforceAccess(ctx, purgeInstance.access); // the purge operation's own check (privilege instances_delete)
      await logAction(ctx, { action: "instance_delete", instance: p.host });
      return { params: { host: p.host, actor: actorOf(ctx) }, total: await ctx.db.account.count({ where: remoteAccountsOf(p.host) }) };
    },
    // deleted accounts stay deleted, so running it again simply continues with those left
    run: (services, p: { host: string; actor: Actor }, _cursor, progress) => purgeInstanceAccounts(services, p, (n) => progress(n)),
  }),
  /** Schedules a refresh of every stored account of the instance (the durable per-account refresh jobs) */
  instance_refetch: kind({
    params: z.object({ host }),
    key: (p) => p.host,
    async begin(ctx, p) {
      if (!ctx.federation) throw Unprocessable("instance refetch needs the running server (it fetches from the network)");
      return { params: p, total: await ctx.db.account.count({ where: remoteAccountsOf(p.host) }) };
    },
    async run(services, p: { host: string }, cursor, progress) {
      const { systemCtx } = await import("../context.ts");
      const ctx = systemCtx(services);
      if (!ctx.federation) throw Unprocessable("instance refetch needs the running server (it fetches from the network)");
      let after = cursor ?? "";
      let scheduled = 0;
      for (;;) {
        const batch = await ctx.db.account.findMany({ where: { ...remoteAccountsOf(p.host), id: { gt: after } }, orderBy: { id: "asc" }, take: 100, select: { id: true } });
        if (batch.length === 0) return { scheduled };
        for (const a of batch) await ctx.federation.scheduleRefresh(ctx, a.id);
        after = batch.at(-1)!.id;
        scheduled += batch.length;
        await progress(batch.length, after);
      }
    },
  }),
  /** Remote statuses older than `days` that no local user interacted with (src/domain/tasks/prune.ts) */
  prune_remote_statuses: kind({
    params: z.object({ days: z.coerce.number().int().min(1) }),
    // one prune at a time: asking again continues the unfinished one (with its own cut-off date)
    key: () => "all",
    async begin(ctx, p) {
      const before = new Date(ctx.clock().getTime() - p.days * 86_400_000).toISOString();
      return { params: { days: p.days, before }, total: await countPrunable(ctx, before) };
    },
    async run(services, p: { before: string }, cursor, progress) {
      let after = cursor ?? "";
      let deleted = 0;
      for (;;) {
        const batch = await pruneBatch(services, p.before, after);
        if (!batch) return { deleted };
        deleted += batch.deleted;
        after = batch.last;
        await progress(batch.deleted, after);
      }
    },
  }),
} as const;

export type TaskKindName = keyof typeof taskKinds;
