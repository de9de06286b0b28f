// The moderation log: every admin action writes one entry whose message is the family's exact text
// (Pleroma's lib/pleroma/moderation_log.ex). Entries are also published on the bus for live admin views.
import type { Account } from "../../generated/prisma/client.ts";
import type { Ctx } from "../context.ts";

type User = Pick<Account, "id" | "nickname">;
interface ReportRef {
  id: string;
  state: string;
  /** the reported account, when known */
  target?: User | null;
}

/** What an admin did; each kind knows its subjects and renders its own message. */
export type LogAction =
  | { action: "follow" | "unfollow"; follower: User; followed: User }
  | { action: "delete" | "reject" | "create" | "activate" | "deactivate" | "approve" | "add_suggestion" | "remove_suggestion"; subjects: User[] }
  | { action: "force_password_reset" | "confirm_email" | "resend_confirmation_email" | "updated_users"; subjects: User[] }
  | { action: "tag" | "untag"; subjects: User[]; tags: string[] }
  | { action: "grant" | "revoke"; subjects: User[]; permission: "admin" | "moderator" }
  | { action: "relay_follow" | "relay_unfollow"; target: string }
  | { action: "report_update"; subject: ReportRef }
  | { action: "report_note" | "report_note_delete"; subject: ReportRef; text: string }
  | { action: "status_update"; subject: { id: string }; sensitive?: boolean; visibility?: string }
  | { action: "status_delete"; subject: { id: string } }
  | { action: "chat_message_delete"; subject: { id: string } }
  | { action: "create_backup"; subject: User }
  | { action: "instance_delete"; instance: string }
  | { action: "blocklist_add" | "blocklist_update" | "blocklist_remove"; list: BlocklistName; target: string; detail?: string }
  | { action: "warn"; subjects: User[]; text: string }
  | { action: "trend_approve" | "trend_reject"; kind: "tag" | "status"; target: string }
  | { action: "report_assign"; subject: ReportRef; assignee: User | null }
  | { action: "report_details"; subject: ReportRef; category: string; rules: string[] }
  | { action: "instance_delete_progress"; instance: string; accounts: number; statuses: number }
  | { action: "instance_delete_done"; instance: string; accounts: number; statuses: number }
  // beyond the family's list (it logs these as "performed action …"): settings, announcements, the media proxy, emoji
  | { action: "config_update"; keys: string[] }
  | { action: "announcement_create" | "announcement_update" | "announcement_delete"; subject: { id: string } }
  | { action: "media_proxy_purge" | "media_proxy_unban"; urls: string[]; ban?: boolean }
  | { action: "emoji_pack_create" | "emoji_pack_update" | "emoji_pack_delete" | "emoji_pack_download"; pack: string }
  | { action: "emoji_pack_import"; packs: string[] }
  | { action: "emoji_file_add" | "emoji_file_update" | "emoji_file_delete"; pack: string; shortcode: string };

/** The instance-wide lists of the reference admin API. */
export type BlocklistName = "domain block" | "domain allow" | "e-mail domain block" | "canonical e-mail block" | "IP block";

/** How the actor is named: the admin token acts without an account. */
export interface Actor {
  id: string | null;
  nickname: string;
}

const at = (u: Pick<User, "nickname">) => `@${u.nickname}`;
const users = (list: User[]) => list.map(at).join(", ");
const onUser = (r: ReportRef) => (r.target ? ` on user ${at(r.target)}` : "");

export function logMessage(actor: Actor, entry: LogAction): string {
  const a = at(actor);
  switch (entry.action) {
    case "follow":
      return `${a} made ${at(entry.follower)} follow ${at(entry.followed)}`;
    case "unfollow":
      return `${a} made ${at(entry.follower)} unfollow ${at(entry.followed)}`;
    case "delete":
      return `${a} deleted users: ${users(entry.subjects)}`;
    case "reject":
      return `${a} rejected users: ${users(entry.subjects)}`;
    case "create":
      return `${a} created users: ${users(entry.subjects)}`;
    case "activate":
      return `${a} activated users: ${users(entry.subjects)}`;
    case "deactivate":
      return `${a} deactivated users: ${users(entry.subjects)}`;
    case "approve":
      return `${a} approved users: ${users(entry.subjects)}`;
    case "add_suggestion":
      return `${a} added suggested users: ${users(entry.subjects)}`;
    case "remove_suggestion":
      return `${a} removed suggested users: ${users(entry.subjects)}`;
    case "tag":
      return `${a} added tags: ${entry.tags.join(", ")} to users: ${users(entry.subjects)}`;
    case "untag":
      return `${a} removed tags: ${entry.tags.join(", ")} from users: ${users(entry.subjects)}`;
    case "grant":
      return `${a} made ${users(entry.subjects)} ${entry.permission}`;
    case "revoke":
      return `${a} revoked ${entry.permission} role from ${users(entry.subjects)}`;
    case "relay_follow":
      return `${a} followed relay: ${entry.target}`;
    case "relay_unfollow":
      return `${a} unfollowed relay: ${entry.target}`;
    case "report_update":
      return `${a} updated report #${entry.subject.id}${entry.subject.target ? ` (on user ${at(entry.subject.target)})` : ""} with '${entry.subject.state}' state`;
    case "report_note":
      return `${a} added note '${entry.text}' to report #${entry.subject.id}${onUser(entry.subject)}`;
    case "report_note_delete":
      return `${a} deleted note '${entry.text}' from report #${entry.subject.id}${onUser(entry.subject)}`;
    case "status_update": {
      const parts = [
        entry.sensitive !== undefined ? `sensitive: '${entry.sensitive}'` : null,
        entry.visibility !== undefined ? `visibility: '${entry.visibility}'` : null,
      ].filter(Boolean);
      return `${a} updated status #${entry.subject.id}, set ${parts.join(", ")}`;
    }
    case "status_delete":
      return `${a} deleted status #${entry.subject.id}`;
    case "force_password_reset":
      return `${a} forced password reset for users: ${users(entry.subjects)}`;
    case "confirm_email":
      return `${a} confirmed email for users: ${users(entry.subjects)}`;
    case "resend_confirmation_email":
      return `${a} re-sent confirmation email for users: ${users(entry.subjects)}`;
    case "updated_users":
      return `${a} updated users: ${users(entry.subjects)}`;
    case "chat_message_delete":
      return `${a} deleted chat message #${entry.subject.id}`;
    case "create_backup":
      return `${a} requested account backup for ${at(entry.subject)}`;
    case "blocklist_add":
      return `${a} added ${entry.list}: ${entry.target}${entry.detail ? ` (${entry.detail})` : ""}`;
    case "blocklist_update":
      return `${a} updated ${entry.list}: ${entry.target}${entry.detail ? ` (${entry.detail})` : ""}`;
    case "blocklist_remove":
      return `${a} removed ${entry.list}: ${entry.target}`;
    case "trend_approve":
      return `${a} approved trending ${entry.kind} ${entry.target}`;
    case "trend_reject":
      return `${a} rejected trending ${entry.kind} ${entry.target}`;
    case "warn":
      return `${a} warned users: ${users(entry.subjects)}${entry.text ? ` with '${entry.text}'` : ""}`;
    case "report_assign":
      return entry.assignee ? `${a} assigned report #${entry.subject.id}${onUser(entry.subject)} to ${at(entry.assignee)}` : `${a} unassigned report #${entry.subject.id}${onUser(entry.subject)}`;
    case "report_details":
      return `${a} updated report #${entry.subject.id}${onUser(entry.subject)} with category '${entry.category}'${entry.rules.length ? ` and rules ${entry.rules.join(", ")}` : ""}`;
    case "instance_delete":
      return `${a} requested deletion of instance ${entry.instance}`;
    case "instance_delete_progress":
      return `${a}'s deletion of instance ${entry.instance}: ${entry.accounts} accounts and ${entry.statuses} statuses removed so far`;
    case "instance_delete_done":
      return `${a} deleted instance ${entry.instance}: ${entry.accounts} accounts and ${entry.statuses} statuses removed`;
    case "config_update":
      return `${a} updated config: ${entry.keys.join(", ")}`;
    case "announcement_create":
      return `${a} created announcement #${entry.subject.id}`;
    case "announcement_update":
      return `${a} updated announcement #${entry.subject.id}`;
    case "announcement_delete":
      return `${a} deleted announcement #${entry.subject.id}`;
    case "media_proxy_purge":
      return `${a} purged URLs from the media proxy cache${entry.ban ? " and banned them" : ""}: ${entry.urls.join(", ")}`;
    case "media_proxy_unban":
      return `${a} lifted the media proxy ban of URLs: ${entry.urls.join(", ")}`;
    case "emoji_pack_create":
      return `${a} created emoji pack ${entry.pack}`;
    case "emoji_pack_update":
      return `${a} updated emoji pack ${entry.pack}`;
    case "emoji_pack_delete":
      return `${a} deleted emoji pack ${entry.pack}`;
    case "emoji_pack_download":
      return `${a} downloaded emoji pack ${entry.pack}`;
    case "emoji_pack_import":
      return `${a} imported emoji packs: ${entry.packs.join(", ")}`;
    case "emoji_file_add":
      return `${a} added emoji :${entry.shortcode}: to pack ${entry.pack}`;
    case "emoji_file_update":
      return `${a} updated emoji :${entry.shortcode}: of pack ${entry.pack}`;
    case "emoji_file_delete":
      return `${a} deleted emoji :${entry.shortcode}: from pack ${entry.pack}`;
  }
}

/** The family's `data` object: actor, action, subjects serialised with their `type`. */
function logData(actor: Actor, entry: LogAction, message: string): Record<string, unknown> {
  const user = (u: User) => ({ id: u.id, nickname: u.nickname, type: "user" });
  const { action, ...rest } = entry;
  const data: Record<string, unknown> = { actor: { id: actor.id, nickname: actor.nickname, type: "user" }, action, message };
  for (const [key, value] of Object.entries(rest)) {
    if (key === "subjects") data.subject = (value as User[]).map(user);
    else if (key === "follower" || key === "followed") data[key] = user(value as User);
    else if (key === "assignee") data[key] = value ? user(value as User) : null;
    else if (key === "subject" && action.startsWith("report")) {
      const r = value as ReportRef;
      data.subject = { type: "report", id: r.id, state: r.state };
      if (r.target) data.subject_actor = user(r.target);
    } else if (key === "subject" && action === "create_backup") data.subject = user(value as User);
    else if (key === "subject") data.subject = { type: action.startsWith("chat") ? "chat_message" : action.startsWith("announcement") ? "announcement" : "status", id: (value as { id: string }).id };
    else data[key] = value;
  }
  return data;
}

export function actorOf(ctx: Ctx): Actor {
  const account = ctx.viewer.account;
  return account ? { id: account.id, nickname: account.nickname } : { id: null, nickname: "admin_token" };
}

/** Writes one entry (in the caller's transaction when `db` is given) and announces it on the bus. */
export async function logAction(ctx: Ctx, entry: LogAction, db: Pick<Ctx["db"], "moderationLogEntry"> = ctx.db): Promise<void> {
  await logActionAs(ctx, actorOf(ctx), entry, db);
}

/** The same for work done later in a job on an admin's behalf (the actor travels in the job's payload). */
export async function logActionAs(ctx: Pick<Ctx, "db" | "bus" | "clock">, actor: Actor, entry: LogAction, db: Pick<Ctx["db"], "moderationLogEntry"> = ctx.db): Promise<void> {
  const message = logMessage(actor, entry);
  const row = await db.moderationLogEntry.create({
    data: { actorId: actor.id, action: entry.action, message, data: logData(actor, entry, message) as object, createdAt: ctx.clock() },
  });
  ctx.bus.publish("moderation_log", { id: row.id });
}
