// The outbox job: turns one intent queued by the domain (src/domain/federation/outbox.ts) into the
// activity, picks the recipients and hands both to Fedify, which fans out per inbox as durable
// `federation.task` jobs with its retries. Anything gone since the intent was queued (a status deleted
// before its Create went out, a follow already undone) sends nothing.
import type { Activity, Recipient } from "@fedify/vocab";
import type { Services } from "../../domain/context.ts";
import type { FederationIntent } from "../../domain/federation/outbox.ts";
import type { FederationContext } from "../federation.ts";
import { federationFor } from "../federation.ts";
import { withGuard } from "../../net/outbound.ts";
import { senderKeys, type SenderAccount } from "./sender-keys.ts";
import {
  followId,
  renderActorDelete,
  renderActorUpdate,
  renderAnnounce,
  renderBlock,
  renderCreate,
  renderEmojiReact,
  renderFollow,
  renderFollowAnswer,
  renderLike,
  renderMove,
  renderPollVote,
  renderStatusDelete,
  renderStatusUpdate,
  renderUndo,
} from "../render/activities.ts";
import { loadStatusPartsOne, type StatusParts } from "../render/status.ts";
import { inboxRecipients, recipients, remoteByApId, remoteById, remoteFollowers } from "./recipients.ts";
import { sendChatMessage } from "./chat.ts";
import { sendFlag } from "./flag.ts";
import { followedRelays, sendRelayAccept, sendRelayFollow, sendRelayUndo } from "./relays.ts";

type Sender = SenderAccount;


interface Send {
  sender: Sender;
  activity: Activity;
  to: Recipient[];
  /** fan-outs to followers go to shared inboxes; person-to-person activities to the personal inbox */
  shared?: boolean;
}

async function send(services: Services, fctx: FederationContext, s: Send): Promise<void> {
  if (!s.sender.local || s.to.length === 0) return;
  await fctx.sendActivity(await senderKeys(services, s.sender), s.to, s.activity, { preferSharedInbox: s.shared ?? false, excludeBaseUris: [new URL(services.settings.baseUrl)] });
}

const localAccount = (services: Services, id: string) => services.db.account.findFirst({ where: { id, local: true } });

/** Remote recipients of a status by its visibility: followers unless direct/list, the addressed, a remote parent's author. */
async function statusRecipients(services: Services, parts: StatusParts): Promise<Recipient[]> {
  const { db } = services;
  const s = parts.status;
  const toFollowers = s.visibility === "public" || s.visibility === "unlisted" || s.visibility === "private";
  const mentioned = parts.mentioned.filter((m) => !m.local).map((m) => m.apId);
  const to = await recipients(
    db,
    toFollowers ? await remoteFollowers(db, s.accountId) : [],
    await remoteByApId(db, mentioned),
    s.visibility === "public" || s.visibility === "unlisted" ? await remoteById(db, s.inReplyToAccountId ? [s.inReplyToAccountId] : []) : [],
  );
  // public posts also go to the relays the instance follows
  return s.visibility === "public" ? [...to, ...(await followedRelays(db))] : to;
}

/** Delivers what `intent` says happened. */
export async function deliverIntent(services: Services, fctx: FederationContext, intent: FederationIntent): Promise<void> {
  const { db } = services;
  const baseUrl = services.settings.baseUrl;
  switch (intent.type) {
    case "status.created":
    case "status.updated": {
      const parts = await loadStatusPartsOne(db, intent.statusId);
      if (!parts || !parts.status.local || parts.status.visibility === "local" || parts.status.reblogOfId) return;
      const sender = await localAccount(services, parts.status.accountId);
      if (!sender) return;
      const activity = intent.type === "status.created" ? renderCreate(parts, baseUrl) : renderStatusUpdate(parts, baseUrl);
      return send(services, fctx, { sender, activity, to: await statusRecipients(services, parts), shared: true });
    }
    case "status.deleted": {
      const s = intent.status;
      const sender = await localAccount(services, s.authorId);
      if (!sender || s.visibility === "local") return;
      const toFollowers = s.visibility === "public" || s.visibility === "unlisted" || s.visibility === "private";
      const to = await recipients(db, toFollowers ? await remoteFollowers(db, s.authorId) : [], await remoteByApId(db, s.addressed));
      if (s.visibility === "public" && !s.reblogOfUri) to.push(...(await followedRelays(db)));
      const activity = s.reblogOfUri
        ? renderUndo(renderAnnounce({ uri: s.uri, visibility: s.visibility, createdAt: new Date() }, sender, s.reblogOfUri), sender.apId)
        : renderStatusDelete(s, sender.apId);
      return send(services, fctx, { sender, activity, to, shared: true });
    }
    case "announce": {
      const reblog = await db.status.findUnique({ where: { id: intent.reblogId }, include: { reblogOf: { include: { account: true } } } });
      if (!reblog?.reblogOf || !reblog.local || reblog.visibility === "local") return;
      const sender = await localAccount(services, reblog.accountId);
      if (!sender) return;
      const original = reblog.reblogOf;
      const to = await recipients(db, await remoteFollowers(db, sender.id), original.account.local ? [] : [original.account]);
      return send(services, fctx, { sender, activity: renderAnnounce(reblog, sender, original.uri, original.account.apId), to, shared: true });
    }
    case "announce.undo": {
      const sender = await localAccount(services, intent.actorId);
      if (!sender || intent.visibility === "local") return;
      const author = await db.account.findUnique({ where: { id: intent.originalAuthorId } });
      const announce = renderAnnounce({ uri: intent.reblogUri, visibility: intent.visibility, createdAt: new Date() }, sender, intent.originalUri, author?.apId);
      const to = await recipients(db, await remoteFollowers(db, sender.id), author && !author.local ? [author] : []);
      return send(services, fctx, { sender, activity: renderUndo(announce, sender.apId), to, shared: true });
    }
    case "like":
    case "like.undo": {
      const fav = intent.type === "like" ? await db.favourite.findUnique({ where: { id: intent.favouriteId } }) : { id: intent.favouriteId, accountId: intent.actorId, statusId: intent.statusId };
      if (!fav) return;
      const [sender, status] = await Promise.all([localAccount(services, fav.accountId), db.status.findUnique({ where: { id: fav.statusId }, include: { account: true } })]);
      if (!sender || !status || status.account.local) return;
      const like = renderLike(fav.id, sender.apId, status.uri, status.account.apId);
      const activity = intent.type === "like" ? like : renderUndo(like, sender.apId);
      return send(services, fctx, { sender, activity, to: await recipients(db, [status.account]) });
    }
    case "react":
    case "react.undo": {
      const reaction =
        intent.type === "react"
          ? await db.reaction.findUnique({ where: { id: intent.reactionId } })
          : { id: intent.reactionId, accountId: intent.actorId, statusId: intent.statusId, emoji: intent.emoji, emojiUrl: intent.emojiUrl };
      if (!reaction) return;
      const [sender, status] = await Promise.all([localAccount(services, reaction.accountId), db.status.findUnique({ where: { id: reaction.statusId }, include: { account: true } })]);
      if (!sender || !status || status.account.local) return;
      const react = renderEmojiReact(reaction.id, sender.apId, status.uri, status.account.apId, reaction);
      const activity = intent.type === "react" ? react : renderUndo(react, sender.apId);
      return send(services, fctx, { sender, activity, to: await recipients(db, [status.account]) });
    }
    case "follow": {
      const follow = await db.follow.findUnique({ where: { id: intent.followId }, include: { follower: true, following: true } });
      if (!follow || !follow.follower.local || follow.following.local) return;
      let id = follow.apId;
      if (!id) {
        // the id the peer's Accept will name; stored before sending so the Accept finds it
        id = followId(follow.follower.apId, follow.id);
        await db.follow.updateMany({ where: { id: follow.id, apId: null }, data: { apId: id } });
      }
      return send(services, fctx, { sender: follow.follower, activity: renderFollow(id, follow.follower.apId, follow.following.apId), to: await recipients(db, [follow.following]) });
    }
    case "follow.undo": {
      const [sender, target] = await Promise.all([localAccount(services, intent.followerId), db.account.findUnique({ where: { id: intent.followingId } })]);
      if (!sender || !target || target.local) return;
      const follow = renderFollow(intent.followApId ?? followId(sender.apId, intent.followId), sender.apId, target.apId);
      return send(services, fctx, { sender, activity: renderUndo(follow, sender.apId), to: await recipients(db, [target]) });
    }
    case "follow.accept":
    case "follow.reject": {
      const follow =
        intent.type === "follow.accept"
          ? await db.follow.findUnique({ where: { id: intent.followId } })
          : { id: intent.followId, apId: intent.followApId, followerId: intent.followerId, followingId: intent.followingId };
      if (!follow) return;
      const [sender, follower] = await Promise.all([localAccount(services, follow.followingId), db.account.findUnique({ where: { id: follow.followerId } })]);
      if (!sender || !follower || follower.local) return;
      const activity = renderFollowAnswer(intent.type === "follow.accept" ? "accept" : "reject", follow.id, follow.apId, follower.apId, sender.apId);
      return send(services, fctx, { sender, activity, to: await recipients(db, [follower]) });
    }
    case "block":
    case "block.undo": {
      const rel = intent.type === "block" ? await db.userRelationship.findUnique({ where: { id: intent.blockId } }) : { id: intent.blockId, sourceId: intent.sourceId, targetId: intent.targetId };
      if (!rel) return;
      const [sender, target] = await Promise.all([localAccount(services, rel.sourceId), db.account.findUnique({ where: { id: rel.targetId } })]);
      if (!sender || !target || target.local) return;
      const block = renderBlock(rel.id, sender.apId, target.apId);
      return send(services, fctx, { sender, activity: intent.type === "block" ? block : renderUndo(block, sender.apId), to: await recipients(db, [target]) });
    }
    case "actor.updated": {
      const sender = await localAccount(services, intent.accountId);
      if (!sender || sender.deactivated) return;
      // the actor document as the actor dispatcher serves it
      const actor = await withGuard(services, () => federationFor(services).createContext(new Request(baseUrl), services).getActor(sender.nickname));
      if (!actor) return;
      return send(services, fctx, { sender, activity: renderActorUpdate(actor, sender.apId, new Date()), to: await recipients(db, await remoteFollowers(db, sender.id)), shared: true });
    }
    case "actor.deleted": {
      const sender = await localAccount(services, intent.accountId);
      if (!sender) return;
      return send(services, fctx, { sender, activity: renderActorDelete(sender.apId), to: await inboxRecipients(db, intent.inboxes), shared: true });
    }
    case "move": {
      const [sender, target] = await Promise.all([localAccount(services, intent.accountId), db.account.findUnique({ where: { id: intent.targetId } })]);
      if (!sender || !target) return;
      return send(services, fctx, { sender, activity: renderMove(sender.apId, target.apId, new Date()), to: await recipients(db, await remoteFollowers(db, sender.id)), shared: true });
    }
    case "poll.vote": {
      const [sender, poll] = await Promise.all([
        localAccount(services, intent.voterId),
        db.poll.findUnique({ where: { id: intent.pollId }, include: { status: { include: { account: true } }, votes: { where: { accountId: intent.voterId } } } }),
      ]);
      if (!sender || !poll || poll.status.account.local) return;
      const author = poll.status.account;
      const to = await recipients(db, [author]);
      for (const vote of poll.votes.filter((v) => intent.choices.includes(v.choice))) {
        const activity = renderPollVote(vote.id, sender.apId, author.apId, poll.status.uri, poll.options[vote.choice] ?? "", vote.createdAt);
        await send(services, fctx, { sender, activity, to });
      }
      return;
    }
    case "relay.follow":
      return sendRelayFollow(services, fctx, intent.relayId, intent.actor);
    case "relay.undo":
      return sendRelayUndo(services, fctx, intent.relayId, intent.actor);
    case "relay.accept":
      return sendRelayAccept(services, fctx, intent.actor, intent.followApId);
    case "flag":
      return sendFlag(services, fctx, intent.reportId);
    case "chat.message":
      return sendChatMessage(services, fctx, intent.messageId, intent.recipientId);
  }
}
