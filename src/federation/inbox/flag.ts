// Flag: a report from another server (usually signed by its instance actor) about one of our
// accounts and some of its statuses → a report whose reporter is that actor's account, visible to
// moderators like any other (admin API, notifications, the live `reportFiled` subscription).
import type { Flag } from "@fedify/vocab";
import { receiveRemoteReport } from "../../domain/reports/reports.ops.ts";
import type { Status } from "../../generated/prisma/client.ts";
import { idOf, list, str } from "../remote/json.ts";
import { inbound, localAccountAt, statusAt, type InboxCtx } from "./inbound.ts";

export async function onFlag(fctx: InboxCtx, flag: Flag) {
  const inb = await inbound(fctx, flag);
  if (!inb) return;
  const named = list(inb.raw.object).flatMap((o) => (idOf(o) ? [idOf(o)!] : []));
  let target = null;
  const statuses: Status[] = [];
  for (const id of named) {
    const status = await statusAt(inb.ctx, id);
    if (status?.local) statuses.push(status);
    else target ??= await localAccountAt(fctx, id);
  }
  // a Flag naming only statuses reports their author
  if (!target && statuses[0]) target = await inb.ctx.db.account.findFirst({ where: { id: statuses[0].accountId, local: true, deactivated: false } });
  if (!target) return;
  await receiveRemoteReport(inb.ctx, inb.actor, target, statuses, str(inb.raw.content) ?? "");
}
