// A forwarded report: a Flag from the instance actor (as the family and Mastodon send them, so the
// reporter stays anonymous to the other server) naming the reported account and statuses, with the
// comment as content, delivered to the reported account's server.
import { Flag } from "@fedify/vocab";
import type { Services } from "../../domain/context.ts";
import type { FederationContext } from "../federation.ts";
import { INSTANCE_ACTOR } from "../service-actors.ts";
import { recipients } from "./recipients.ts";

export async function sendFlag(services: Services, fctx: FederationContext, reportId: string): Promise<void> {
  const { db } = services;
  const report = await db.report.findUnique({ where: { id: reportId }, include: { target: true } });
  if (!report || report.target.local) return;
  const statuses = report.statusIds.length ? await db.status.findMany({ where: { id: { in: report.statusIds }, accountId: report.targetId }, select: { uri: true } }) : [];
  const actor = fctx.getActorUri(INSTANCE_ACTOR);
  const flag = new Flag({
    id: new URL(`${actor.href}#flags/${report.id}`),
    actor,
    objects: [new URL(report.target.apId), ...statuses.map((s) => new URL(s.uri))],
    content: report.comment,
    to: new URL(report.target.apId),
  });
  const to = await recipients(db, [report.target]);
  if (to.length) await fctx.sendActivity({ identifier: INSTANCE_ACTOR }, to, flag, { preferSharedInbox: true });
}
