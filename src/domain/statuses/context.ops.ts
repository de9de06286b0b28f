// A status's thread as the viewer may see it: the replies it answers (ancestors) and the replies
// below it (descendants). Visibility is decided by filterVisible (visibility.ts) in one pass; a reply
// the viewer cannot see hides the replies under it too (thread containment), unless the viewer
// turned containment off (`skip_thread_containment`).
import { z } from "zod";
import type { Status } from "../../generated/prisma/client.ts";
import type { Ctx } from "../context.ts";
import { operation } from "../operation.ts";
import { actionTarget } from "./actions.ops.ts";
import { filterVisible } from "./statuses.read.ts";
import { allStatusesChanged } from "./status-cache.ts";

/** At most this many statuses of one thread are considered (the reference server's cap for signed-in viewers). */
const MAX_THREAD = 4096;
/** How far up a reply chain that leaves the thread's context is followed. */
const MAX_ANCESTORS = 256;
/** Missing ancestors of a remote reply fetched while answering (the rest on a later view), and the time they may take. */
const FETCH_ANCESTORS = { maxDepth: 20, timeoutMs: 3_000 };

export interface StatusContext {
  /** oldest first, the root of the thread first */
  ancestors: Status[];
  /** depth-first, each level oldest first */
  descendants: Status[];
}

export const statusContext = operation({
  name: "statuses.context",
  access: { scopes: ["read:statuses"], optional: true },
  input: z.object({ id: z.string() }),
  async run(ctx, input): Promise<StatusContext> {
    let status = await actionTarget(ctx, input.id);
    let { thread, chain, seen } = await ancestry(ctx, status);
    // the top of a remote thread stored without its parent (a reply met before its thread): fetch the
    // missing ancestors now, with a short deadline, so that this answer already shows them
    const top = chain[0] ?? status;
    if (!top.local && !top.inReplyToId && ctx.federation && !lookedUpLately(ctx, top.id)) {
      const changed = await ctx.federation.fetchAncestors(ctx, top, FETCH_ANCESTORS).catch(() => 0);
      // most views find the walk already done (0): the thread is then read once, not twice
      const linked = changed ? await ctx.db.status.findUnique({ where: { id: top.id } }) : null;
      if (linked?.inReplyToId) {
        status = (await ctx.db.status.findUnique({ where: { id: status.id } })) ?? status;
        ({ thread, chain, seen } = await ancestry(ctx, status));
      }
    }

    const children = new Map<string, Status[]>();
    for (const s of thread) if (s.inReplyToId && !seen.has(s.id)) children.set(s.inReplyToId, [...(children.get(s.inReplyToId) ?? []), s]);
    const below = walk(status.id, children, () => true);

    const visible = new Set((await filterVisible(ctx, [...chain, ...below])).map((s) => s.id));
    const contained = !ctx.viewer.account?.skipThreadContainment;
    const descendants = walk(status.id, children, (s) => visible.has(s.id) || !contained).filter((s) => visible.has(s.id));
    return { ancestors: chain.filter((s) => visible.has(s.id)), descendants };
  },
});

/**
 * Whether this process asked for the missing ancestors of `topId` in the last LOOKED_UP_MS, noting that it asks now.
 * The federation remembers each walk in the database (resolve.ts: a day after a complete one, five minutes after
 * one cut short), but asking costs a statement per view of the thread, and the federation modules' loading the
 * first time. Remembered here for the shorter of those times: a walk cut short is tried again after 5–10 minutes.
 */
function lookedUpLately(ctx: Ctx, topId: string): boolean {
  let looked = lookedUp.get(ctx.db);
  if (!looked) lookedUp.set(ctx.db, (looked = new Map()));
  const now = ctx.clock().getTime();
  const until = looked.get(topId);
  if (until !== undefined && until > now) return true;
  if (looked.size >= MAX_LOOKED_UP) looked.clear();
  looked.set(topId, now + LOOKED_UP_MS);
  return false;
}
const LOOKED_UP_MS = 5 * 60_000;
const MAX_LOOKED_UP = 10_000;
/** per database (tests run several servers in one process) */
const lookedUp = new WeakMap<object, Map<string, number>>();

/** The thread of `status` (its context) and its chain of ancestors, oldest first. */
async function ancestry(ctx: Ctx, status: Status) {
  const thread = await ctx.db.status.findMany({ where: { context: status.context, reblogOfId: null }, orderBy: { id: "asc" }, take: MAX_THREAD });
  const byId = new Map(thread.map((s) => [s.id, s]));
  const chain: Status[] = [];
  const seen = new Set([status.id]);
  for (let parentId = status.inReplyToId; parentId && !seen.has(parentId) && chain.length < MAX_ANCESTORS; ) {
    seen.add(parentId);
    // a parent outside the context (a thread federated oddly) is read on its own
    const parent = byId.get(parentId) ?? (await ctx.db.status.findUnique({ where: { id: parentId } }));
    if (!parent) break;
    chain.unshift(parent);
    parentId = parent.inReplyToId;
  }
  return { thread, chain, seen };
}

/** Depth-first below `rootId`, children oldest first; `enter` decides whether a reply and its subtree are kept. */
function walk(rootId: string, children: Map<string, Status[]>, enter: (s: Status) => boolean): Status[] {
  const out: Status[] = [];
  const done = new Set<string>([rootId]);
  const stack = [...(children.get(rootId) ?? [])].reverse();
  while (stack.length) {
    const s = stack.pop()!;
    if (done.has(s.id) || !enter(s)) continue;
    done.add(s.id);
    out.push(s);
    stack.push(...[...(children.get(s.id) ?? [])].reverse());
  }
  return out;
}

/**
 * Links a stored reply to its parent once the parent is known (fetched after the reply): the reply
 * and the replies below it join the parent's thread.
 */
export async function linkReplyParent(ctx: Pick<Ctx, "db" | "bus">, replyId: string, parentId: string): Promise<void> {
  const [reply, parent] = await Promise.all([ctx.db.status.findUnique({ where: { id: replyId } }), ctx.db.status.findUnique({ where: { id: parentId } })]);
  if (!reply || !parent || reply.id === parent.id) return;
  await ctx.db.$transaction([
    ctx.db.status.update({ where: { id: reply.id }, data: { inReplyToId: parent.id, inReplyToAccountId: parent.accountId, context: parent.context } }),
    // what was already threaded under the reply follows it into the parent's thread
    ctx.db.status.updateMany({ where: { context: reply.context, id: { not: reply.id } }, data: { context: parent.context } }),
  ]);
  // a whole thread's rows (and the parent's replies_count) changed
  allStatusesChanged(ctx);
}
