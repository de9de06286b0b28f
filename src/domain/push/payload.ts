// What a push carries: the reference payload `{access_token, preferred_locale, notification_id,
// notification_type, icon, title, body}`, in English (no translations exist yet).
import type { Prisma } from "../../generated/prisma/client.ts";
import { avatarUrl } from "../media/defaults.ts";
import type { Ctx } from "../context.ts";
import { wireType } from "../notifications/notifications.ops.ts";
import { htmlToText } from "../statuses/formatter.ts";

export const pushNotificationInclude = {
  account: true,
  fromAccount: true,
  status: true,
  chatMessageRef: { include: { message: true } },
} as const satisfies Prisma.NotificationInclude;

export type PushNotification = Prisma.NotificationGetPayload<{ include: typeof pushNotificationInclude }>;

/** Push services cap a payload at 4 KiB after encryption; the reference cuts bodies at 140 characters too. */
const BODY_CHARS = 140;

/** Titles by stored type, as the family's service workers show them. */
const TITLES: Record<string, (name: string, n: PushNotification) => string> = {
  mention: (name) => `${name} mentioned you`,
  status: (name) => `${name} just posted`,
  reblog: (name) => `${name} repeated your post`,
  follow: (name) => `${name} followed you`,
  follow_request: (name) => `${name} requested to follow you`,
  favourite: (name) => `${name} favourited your post`,
  poll: (_name, n) => (n.accountId === n.fromAccountId ? "Your poll has ended" : "A poll you voted in has ended"),
  update: (name) => `${name} edited a post`,
  move: (name) => `${name} moved to a new account`,
  emoji_reaction: (name, n) => `${name} reacted with ${n.emoji ?? ""}`.trim(),
  chat_mention: (name) => `New chat message from ${name}`,
  report: (name) => `${name} filed a report`,
};

/** What is shown instead when the recipient hides notification contents (the family's generic titles). */
const GENERIC: Record<string, string> = {
  mention: "New Mention",
  status: "New Status",
  reblog: "New Repeat",
  follow: "New Follower",
  follow_request: "New Follow Request",
  favourite: "New Favorite",
  poll: "Poll Results",
  update: "New Update",
  move: "New Move",
  emoji_reaction: "New Reaction",
  chat_mention: "New Chat Message",
  report: "New Report",
};

function truncate(text: string): string {
  const chars = [...text.replace(/\s+/g, " ").trim()];
  return chars.length > BODY_CHARS ? `${chars.slice(0, BODY_CHARS - 1).join("")}…` : chars.join("");
}

/** The post's words (its content warning instead, when it has one), or the chat message's. */
function bodyText(n: PushNotification): string {
  if (n.status) return truncate(n.status.spoilerText || htmlToText(n.status.content));
  if (n.chatMessageRef) return truncate(htmlToText(n.chatMessageRef.message.content));
  return "";
}

function hidesContents(settings: unknown): boolean {
  return !!settings && typeof settings === "object" && (settings as Record<string, unknown>).hide_notification_contents === true;
}

export function renderPushPayload(ctx: Ctx, n: PushNotification) {
  const base = {
    // only digests of access tokens are stored, so the reference's token cannot be sent
    access_token: null,
    preferred_locale: n.account.language ?? "en",
    notification_id: n.id,
    notification_type: wireType(ctx, n.type),
  };
  if (hidesContents(n.account.notificationSettings)) {
    // no name, words or avatar: only the instance and what kind of thing happened
    return { ...base, icon: avatarUrl(ctx, { avatar: null }), title: ctx.config.get("instance", "name"), body: GENERIC[n.type] ?? "New Notification" };
  }
  const title = TITLES[n.type] ?? (() => "New Notification");
  return { ...base, icon: avatarUrl(ctx, n.fromAccount), title: title(`@${n.fromAccount.nickname}`, n), body: bodyText(n) };
}
