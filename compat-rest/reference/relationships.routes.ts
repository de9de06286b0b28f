// Reference API: relationships, follow/block/mute actions, follow requests, blocks, mutes, domain blocks.
// Mounted before /api/v1/accounts/:id, so the fixed path /api/v1/accounts/relationships is safe here.
import { z } from "zod";
import type { Ctx } from "../../src/domain/context.ts";
import { blockAccount, listBlocks, listMutes, muteAccount, setAccountNote, unblockAccount, unmuteAccount } from "../../src/domain/relationships/blocks-mutes.ops.ts";
import { blockDomain, listDomainBlocks, unblockDomain } from "../../src/domain/relationships/domain-blocks.ops.ts";
import {
  authorizeFollowRequest,
  followAccount,
  followByUri,
  listFollowRequests,
  rejectFollowRequest,
  removeFromFollowers,
  unfollowAccount,
} from "../../src/domain/relationships/follows.ops.ts";
import { accountEndorsements, endorseAccount, familiarFollowers, listEndorsements, unendorseAccount } from "../../src/domain/relationships/endorsements.ops.ts";
import { getRelationships, type RelationshipState } from "../../src/domain/relationships/relationships.read.ts";
import { pageInput } from "../../src/domain/pagination.ts";
import { array, bool, int } from "../inputs.ts";
import { route, type RouteDef } from "../../src/http/routes/route.ts";
import type { AnyOperation } from "../../src/domain/operation.ts";
import { renderAccounts } from "../../src/views/account.ts";
import { renderRelationship } from "../../src/views/relationship.ts";
import { text } from "../../src/domain/input-limits.ts";
import { AccountSchema, RelationshipSchema } from "../../src/views/schemas/account.ts";
import { DomainListSchema, EmptySchema, FamiliarFollowersSchema, MutedAccountSchema } from "../../src/views/schemas/misc.ts";
import { listOf } from "../../src/views/schemas/view.ts";

const idParam = z.object({ id: z.string() });
const withRelationships = z.object({ with_relationships: bool().optional() });

/** POST /api/v1/accounts/:id/<action>: the viewer acts on one account and gets the Relationship back. */
function accountAction<B extends z.ZodObject>(
  action: string,
  summary: string,
  /** the operation, whose access is the route's */
  call: AnyOperation & ((ctx: Ctx, input: z.output<B> & { id: string }) => Promise<RelationshipState>),
  body: B,
) {
  return route({
    method: "POST",
    path: `/api/v1/accounts/:id/${action}`,
    view: RelationshipSchema,
    summary,
    tags: ["Relationships"],
    operation: call,
    params: idParam,
    body,
    async handler(ctx, input) {
      return renderRelationship(await call(ctx, { ...input.body, id: input.params.id }));
    },
  });
}

const noBody = z.object({});

/** Endorsements: `pin`/`unpin` (earlier) and `endorse`/`unendorse` (later) are the same actions. */
const endorsementRoutes: RouteDef[] = [
  ...(["pin", "endorse"] as const).map((action) => accountAction(action, "Feature a followed account on one's profile (422 when not following it)", endorseAccount, noBody)),
  ...(["unpin", "unendorse"] as const).map((action) => accountAction(action, "Stop featuring an account", unendorseAccount, noBody)),
  route({
    method: "GET",
    path: "/api/v1/endorsements",
    view: listOf(AccountSchema),
    summary: "The accounts the signed-in account features, newest first",
    tags: ["Relationships"],
    operation: listEndorsements,
    query: pageInput,
    paged: "id",
    async handler(ctx, { query }) {
      const page = await listEndorsements(ctx, query);
      return { ...page, items: await renderAccounts(ctx, page.items) };
    },
  }),
  route({
    method: "GET",
    path: ["/api/v1/accounts/:id/endorsements", "/api/v1/$ns/accounts/:id/endorsements"],
    view: listOf(AccountSchema),
    summary: "The accounts an account features on its profile",
    tags: ["Relationships"],
    operation: accountEndorsements,
    params: idParam,
    query: pageInput,
    paged: "id",
    async handler(ctx, { params, query }) {
      const page = await accountEndorsements(ctx, { ...query, id: params.id });
      return { ...page, items: await renderAccounts(ctx, page.items) };
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/accounts/familiar_followers",
    view: listOf(FamiliarFollowersSchema),
    summary: "For each account (`id[]`, at most 40): the accounts the signed-in account follows that follow it",
    tags: ["Relationships"],
    operation: familiarFollowers,
    query: familiarFollowers.input,
    async handler(ctx, { query }) {
      const found = await familiarFollowers(ctx, query);
      const all = [...new Map(found.flatMap((f) => f.accounts).map((a) => [a.id, a])).values()];
      const rendered = new Map((await renderAccounts(ctx, all)).map((r, i) => [all[i]!.id, r]));
      return found.map((f) => ({ id: f.id, accounts: f.accounts.map((a) => rendered.get(a.id)) }));
    },
  }),
];

export const relationshipRoutes: RouteDef[] = [
  ...endorsementRoutes,
  route({
    method: "GET",
    path: "/api/v1/accounts/relationships",
    view: listOf(RelationshipSchema),
    summary: "The signed-in account's relationships to the given accounts (unknown ids are skipped)",
    tags: ["Relationships"],
    operation: getRelationships,
    query: z.object({ id: array(z.string()).optional() }),
    async handler(ctx, { query }) {
      return (await getRelationships(ctx, { id: query.id ?? [] })).map(renderRelationship);
    },
  }),
  accountAction("follow", "Follow an account (a request when it is locked); following again updates the options", followAccount, z.object({ reblogs: bool().optional(), notify: bool().optional() })),
  route({
    method: "POST",
    path: "/api/v1/follows",
    view: RelationshipSchema,
    summary: "Follow an account named by nickname (bob@remote.host for a remote one)",
    tags: ["Relationships"],
    operation: followByUri,
    body: z.object({ uri: z.string() }),
    async handler(ctx, { body }) {
      return renderRelationship(await followByUri(ctx, body));
    },
  }),
  accountAction("unfollow", "Unfollow an account or cancel the follow request", unfollowAccount, noBody),
  accountAction("remove_from_followers", "Remove an account from the signed-in account's followers", removeFromFollowers, noBody),
  accountAction("block", "Block an account; follows between the two end in both directions", blockAccount, noBody),
  accountAction("unblock", "Unblock an account", unblockAccount, noBody),
  accountAction(
    "mute",
    "Mute an account, optionally its notifications too and for a limited time",
    muteAccount,
    z.object({ notifications: bool().optional(), duration: int().optional(), expires_in: int().optional() }),
  ),
  accountAction("unmute", "Unmute an account", unmuteAccount, noBody),
  accountAction("note", "Set (or, empty, remove) the private note about an account", setAccountNote, z.object({ comment: text().optional() })),

  route({
    method: "GET",
    path: "/api/v1/follow_requests",
    view: listOf(AccountSchema),
    summary: "Accounts waiting for the signed-in account to answer their follow request",
    tags: ["Relationships"],
    operation: listFollowRequests,
    query: pageInput.extend(withRelationships.shape),
    paged: "id",
    async handler(ctx, { query }) {
      const page = await listFollowRequests(ctx, query);
      return { ...page, items: await renderAccounts(ctx, page.items, { withRelationships: query.with_relationships }) };
    },
  }),
  ...(["authorize", "reject"] as const).map((answer) =>
    route({
      method: "POST",
      path: `/api/v1/follow_requests/:id/${answer}`,
      view: RelationshipSchema,
      summary: `${answer === "authorize" ? "Accept" : "Reject"} an account's follow request`,
      tags: ["Relationships"],
      operation: answer === "authorize" ? authorizeFollowRequest : rejectFollowRequest,
      params: idParam,
      async handler(ctx, { params }) {
        return renderRelationship(await (answer === "authorize" ? authorizeFollowRequest : rejectFollowRequest)(ctx, { id: params.id }));
      },
    }),
  ),

  route({
    method: "GET",
    path: "/api/v1/blocks",
    view: listOf(AccountSchema),
    summary: "Accounts the signed-in account blocks, newest first",
    tags: ["Relationships"],
    operation: listBlocks,
    query: pageInput.extend(withRelationships.shape),
    paged: "id",
    async handler(ctx, { query }) {
      const page = await listBlocks(ctx, query);
      const items = await renderAccounts(
        ctx,
        page.items.map((i) => i.account),
        { withRelationships: query.with_relationships },
      );
      return { ...page, items };
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/mutes",
    view: listOf(MutedAccountSchema),
    summary: "Accounts the signed-in account mutes (unexpired), newest first; each with mute_expires_at",
    tags: ["Relationships"],
    operation: listMutes,
    query: pageInput.extend(withRelationships.shape),
    paged: "id",
    async handler(ctx, { query }) {
      const page = await listMutes(ctx, query);
      const accounts = await renderAccounts(
        ctx,
        page.items.map((i) => i.account),
        { withRelationships: query.with_relationships },
      );
      return { ...page, items: accounts.map((a, i) => ({ ...a, mute_expires_at: page.items[i].expiresAt?.toISOString() ?? null })) };
    },
  }),

  route({
    method: "GET",
    path: "/api/v1/domain_blocks",
    view: DomainListSchema,
    summary: "Domains the signed-in account hides, newest first",
    tags: ["Relationships"],
    operation: listDomainBlocks,
    query: pageInput,
    paged: "id",
    async handler(ctx, { query }) {
      const page = await listDomainBlocks(ctx, query);
      return { ...page, items: await page.items };
    },
  }),
  ...(["POST", "DELETE"] as const).map((method) =>
    route({
      method,
      path: "/api/v1/domain_blocks",
      view: EmptySchema,
      summary: method === "POST" ? "Hide a domain" : "Stop hiding a domain",
      tags: ["Relationships"],
      operation: method === "POST" ? blockDomain : unblockDomain,
      body: z.object({ domain: z.string() }),
      async handler(ctx, { body }) {
        await (method === "POST" ? blockDomain : unblockDomain)(ctx, body);
        return {};
      },
    }),
  ),
];
