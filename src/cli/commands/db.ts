// ctl db …: database maintenance. vacuum is one statement; prune is a long, resumable task.
import { flag, int, UsageError, type Command } from "../command.ts";
import { runLongTask } from "../tasks.ts";

export const dbCommands: Record<string, Command> = {
  vacuum: {
    usage: "[--full]",
    summary: "VACUUM ANALYZE (FULL with --full: rewrites tables under an exclusive lock)",
    async run(inv) {
      const r = await (await inv.backend()).call<{ statement: string; ms: number }>("db.vacuum", { full: flag(inv, "full") ?? false });
      inv.out.result(r, () => `${r.statement} done in ${r.ms} ms`);
    },
  },
  prune: {
    usage: "--days <n>",
    summary: "deletes remote statuses older than n days that no local user interacted with (resumable task)",
    async run(inv) {
      const days = int(inv, "days");
      if (!days) throw new UsageError("db prune needs --days <n> (at least 1)");
      const t = await runLongTask(await inv.backend(), inv.out, "prune_remote_statuses", { days });
      inv.out.result(t, () => `pruned ${(t.result as { deleted: number }).deleted} remote status(es) older than ${(t.params as { before: string }).before}`);
    },
  },
};
