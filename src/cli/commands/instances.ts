// ctl instance …: remote instances; purge and refetch are long tasks (src/domain/tasks/).
import { flag, int, need, type Command } from "../command.ts";
import { runLongTask } from "../tasks.ts";

interface InstanceView {
  domain: string;
  unreachableSince: string | null;
  deliverySuspended: boolean;
  users: number;
  statuses: number;
}

const task = (kind: "instance_purge" | "instance_refetch", summary: string, done: (r: any, host: string) => string): Command => ({
  usage: "<host>",
  summary,
  async run(inv) {
    const [host] = need(inv, 1, "<host>");
    const t = await runLongTask(await inv.backend(), inv.out, kind, { host });
    inv.out.result(t, () => done(t.result, host));
  },
});

export const instanceCommands: Record<string, Command> = {
  list: {
    usage: "[--unreachable|--no-unreachable] [--page <n>] [--page-size <n>]",
    summary: "known remote instances with their delivery health",
    async run(inv) {
      const r = await (await inv.backend()).call<{ total: number; items: InstanceView[] }>("instances.list", { unreachable: flag(inv, "unreachable"), page: int(inv, "page"), page_size: int(inv, "page-size") });
      inv.out.result(r, () => [...r.items.map((i) => `${i.domain}  ${i.users} user(s)  ${i.statuses} status(es)  ${i.unreachableSince ? `unreachable since ${i.unreachableSince}${i.deliverySuspended ? " (delivery suspended)" : ""}` : "reachable"}`), `${r.total} instance(s)`]);
    },
  },
  purge: task("instance_purge", "deletes every account of a remote instance with all its content (resumable task)", (r, host) => `purged ${host}: ${r.accounts} account(s), ${r.statuses} status(es)`),
  refetch: task("instance_refetch", "re-fetches every stored account of a remote instance (resumable task; needs the running server)", (r, host) => `scheduled a refresh of ${r.scheduled} account(s) of ${host}`),
};
