// Relationships over GraphQL: the viewer's relationships, follow requests, blocks, mutes, domain blocks,
// endorsements, followers and following, and the actions on them. Each field calls the operation its
// REST route calls; account lists are Relay connections rendered through the request's loaders.
import type { Account } from "../generated/prisma/client.ts";
import { listFollowers, listFollowing } from "../domain/accounts/accounts.read.ts";
import type { Page, PageInput } from "../domain/pagination.ts";
import { listBlocks, listMutes, setAccountNote } from "../domain/relationships/blocks-mutes.ops.ts";
import { blockDomain, listDomainBlocks, unblockDomain } from "../domain/relationships/domain-blocks.ops.ts";
import { accountEndorsements, endorseAccount, familiarFollowers, listEndorsements, unendorseAccount } from "../domain/relationships/endorsements.ops.ts";
import {
  authorizeFollowRequest,
  followByUri,
  listFollowRequests,
  rejectFollowRequest,
  removeFromFollowers,
  subscribeToAccount,
  unsubscribeFromAccount,
} from "../domain/relationships/follows.ops.ts";
import { getRelationships, type RelationshipState } from "../domain/relationships/relationships.read.ts";
import type { Ctx } from "../domain/context.ts";
import type { AnyOperation } from "../domain/operation.ts";
import { Relationship } from "./accounts.ts";
import { builder } from "./builder.ts";
import { AccountType, relayConnection, type RelayArgs } from "./paging.ts";
import { accessOf } from "./access.ts";

export const AccountConnection = builder.connectionObject({ type: AccountType, name: "AccountConnection" });

/**
 * One page of accounts as a connection. Account lists page by the row that links them (the follow,
 * the block…), which the accounts do not carry: page with pageInfo's cursors.
 */
export const accountPage = (args: RelayArgs, fetch: (p: PageInput) => Promise<Page<Account>>) =>
  relayConnection(args, fetch, { cursorOf: (a) => a.id, floor: "0", itemCursors: false });


const MutedAccount = builder.objectRef<{ account: Account; expiresAt: Date | null }>("MutedAccount").implement({
  fields: (t) => ({
    account: t.field({ type: AccountType, resolve: (m) => m.account }),
    expiresAt: t.field({ type: "DateTime", nullable: true, description: "when a limited mute ends", resolve: (m) => m.expiresAt }),
  }),
});
const MutedAccountConnection = builder.connectionObject({ type: MutedAccount, name: "MutedAccountConnection" });

const DomainConnection = builder.connectionObject({ type: "String", name: "DomainConnection" });

const FamiliarFollowers = builder.objectRef<{ id: string; accounts: Account[] }>("FamiliarFollowers").implement({
  fields: (t) => ({ id: t.exposeID("id"), accounts: t.field({ type: [AccountType], resolve: (f) => f.accounts }) }),
});

builder.queryFields((t) => ({
  relationships: t.field({
    ...accessOf(getRelationships),
    type: [Relationship],
    args: { ids: t.arg.idList({ required: true }) },
    resolve: (_r, a, ctx) => getRelationships(ctx, { id: a.ids.map(String) }),
  }),
  familiarFollowers: t.field({
    ...accessOf(familiarFollowers),
    type: [FamiliarFollowers],
    description: "For each account: the accounts the viewer follows that follow it too",
    args: { ids: t.arg.idList({ required: true }) },
    resolve: (_r, a, ctx) => familiarFollowers(ctx, { id: a.ids.map(String) }),
  }),
  followRequests: t.connection(
    { ...accessOf(listFollowRequests), type: AccountType, resolve: (_r, a, ctx) => accountPage(a, (p) => listFollowRequests(ctx, p)) },
    AccountConnection,
  ),
  blocks: t.connection({ ...accessOf(listBlocks), type: AccountType, resolve: (_r, a, ctx) => accountPage(a, async (p) => {
    const page = await listBlocks(ctx, p);
    return { ...page, items: page.items.map((i) => i.account) };
  }) }, AccountConnection),
  mutes: t.connection(
    {
      ...accessOf(listMutes),
      type: MutedAccount,
      resolve: (_r, a, ctx) => relayConnection(a, (p) => listMutes(ctx, p), { cursorOf: (m) => m.account.id, floor: "0", itemCursors: false }),
    },
    MutedAccountConnection,
  ),
  domainBlocks: t.connection(
    { ...accessOf(listDomainBlocks), type: "String", resolve: (_r, a, ctx) => relayConnection(a, (p) => listDomainBlocks(ctx, p), { cursorOf: (d) => d, floor: "0", itemCursors: false }) },
    DomainConnection,
  ),
  endorsements: t.connection(
    { ...accessOf(listEndorsements), type: AccountType, description: "The accounts the viewer features", resolve: (_r, a, ctx) => accountPage(a, (p) => listEndorsements(ctx, p)) },
    AccountConnection,
  ),
  accountEndorsements: t.connection(
    {
      ...accessOf(accountEndorsements),
      type: AccountType,
      description: "The accounts an account features on its profile",
      args: { id: t.arg.id({ required: true }) },
      resolve: (_r, a, ctx) => accountPage(a, (p) => accountEndorsements(ctx, { ...p, id: String(a.id) })),
    },
    AccountConnection,
  ),
  followers: t.connection(
    { ...accessOf(listFollowers), type: AccountType, args: { id: t.arg.id({ required: true }) }, resolve: (_r, a, ctx) => accountPage(a, (p) => listFollowers(ctx, { ...p, id: String(a.id) })) },
    AccountConnection,
  ),
  following: t.connection(
    { ...accessOf(listFollowing), type: AccountType, args: { id: t.arg.id({ required: true }) }, resolve: (_r, a, ctx) => accountPage(a, (p) => listFollowing(ctx, { ...p, id: String(a.id) })) },
    AccountConnection,
  ),
}));

/** Mutations that take an account id and answer the viewer's relationship to it, each guarded as its operation declares. */
const ACTIONS = {
  authorizeFollowRequest: [{ authorizeFollowRequest }],
  rejectFollowRequest: [{ rejectFollowRequest }],
  removeFromFollowers: [{ removeFromFollowers }],
  subscribe: [{ subscribeToAccount }],
  unsubscribe: [{ unsubscribeFromAccount }],
  endorse: [{ endorseAccount }],
  unendorse: [{ unendorseAccount }],
} as const;

builder.mutationFields((t) => ({
  ...Object.fromEntries(
    Object.entries(ACTIONS).map(([name, [named]]) => {
      // `{ operation }`: the operation and its name, which the parity test reads (the call here is generic)
      const [opName, op] = Object.entries(named)[0] as [string, AnyOperation & ((ctx: Ctx, input: { id: string }) => Promise<RelationshipState>)];
      const guard = accessOf(op);
      return [
        name,
        t.field({
          ...guard,
          type: Relationship,
          args: { accountId: t.arg.id({ required: true }) },
          extensions: { ...guard.extensions, domainOperation: opName },
          resolve: (_r, a, ctx) => op(ctx, { id: String(a.accountId) }),
        }),
      ];
    }),
  ),
  setAccountNote: t.field({
    ...accessOf(setAccountNote),
    type: Relationship,
    description: "Sets (or, empty, removes) the viewer's private note about an account",
    args: { accountId: t.arg.id({ required: true }), comment: t.arg.string({ required: true }) },
    resolve: (_r, a, ctx) => setAccountNote(ctx, { id: String(a.accountId), comment: a.comment }),
  }),
  followByUri: t.field({ ...accessOf(followByUri), type: Relationship, args: { uri: t.arg.string({ required: true }) }, resolve: (_r, a, ctx) => followByUri(ctx, { uri: a.uri }) }),
  blockDomain: t.boolean({ ...accessOf(blockDomain), args: { domain: t.arg.string({ required: true }) }, resolve: async (_r, a, ctx) => (await blockDomain(ctx, { domain: a.domain }), true) }),
  unblockDomain: t.boolean({ ...accessOf(unblockDomain), args: { domain: t.arg.string({ required: true }) }, resolve: async (_r, a, ctx) => (await unblockDomain(ctx, { domain: a.domain }), true) }),
}));
