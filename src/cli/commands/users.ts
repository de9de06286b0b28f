// ctl user …: the admin API's user operations (src/trpc/ctl-ops.ts, "users.*").
import type { userView } from "../../trpc/ctl-ops.ts";
import { flag, int, need, str, UsageError, type Command } from "../command.ts";
import { roles } from "../output.ts";

type User = ReturnType<typeof userView>;

const flags = (u: User) => [u.deactivated && "deactivated", u.approvalPending && "awaiting approval", u.confirmationPending && "unconfirmed", u.mfaEnabled && "mfa"].filter(Boolean);
const line = (u: User) => [u.nickname, u.email ?? "-", roles(u), ...flags(u), u.tags.length ? `tags: ${u.tags.join(",")}` : ""].filter(Boolean).join("  ");

/** activate, deactivate, delete: several nicknames at once, as the admin API takes them */
const batch = (op: "users.activate" | "users.deactivate" | "users.delete", past: string): Command => ({
  usage: `<nickname>... `,
  summary: `${past.replace(/d$/, "")}s users`,
  async run(inv) {
    const nicknames = need(inv, 1, "<nickname>");
    const users = await (await inv.backend()).call<User[]>(op, { nicknames });
    inv.out.result(users, () => users.map((u) => `${past} ${u.nickname}`));
  },
});

const tagging = (op: "users.tag" | "users.untag"): Command => ({
  usage: "<nickname> <tag>...",
  summary: op === "users.tag" ? "adds tags to a user (e.g. mrf_tag:media-force-nsfw)" : "removes tags from a user",
  async run(inv) {
    const [nickname, ...tags] = need(inv, 2, "<nickname> <tag>");
    const [user] = await (await inv.backend()).call<User[]>(op, { nicknames: [nickname], tags });
    if (!user) throw new Error(`No user ${nickname}`);
    inv.out.result(user, () => `${user.nickname}: tags ${user.tags.join(", ") || "(none)"}`);
  },
});

export const userCommands: Record<string, Command> = {
  list: {
    usage: "[--query <text>] [--filter local|external|active|need_approval|unconfirmed|deactivated|is_admin|is_moderator]... [--page <n>] [--page-size <n>]",
    summary: "lists users, 50 a page, by nickname",
    async run(inv) {
      const filters = (inv.opts.filter as string[] | undefined) ?? [];
      const page = await (await inv.backend()).call<{ count: number; users: User[] }>("users.list", { query: str(inv, "query"), filters: filters.join(","), page: int(inv, "page"), page_size: int(inv, "page-size") });
      inv.out.result(page, () => [...page.users.map(line), `${page.count} user(s)`]);
    },
  },
  show: {
    usage: "<nickname>",
    summary: "shows one user (local or remote, by nickname or id)",
    async run(inv) {
      const [nickname] = need(inv, 1, "<nickname>");
      const u = await (await inv.backend()).call<User>("users.show", { nickname });
      inv.out.result(u, () => [`${u.nickname} (${u.id})`, `email: ${u.email ?? "-"}`, `roles: ${roles(u)}`, `local: ${u.local}`, `state: ${flags(u).join(", ") || "active"}`, `tags: ${u.tags.join(", ") || "-"}`, `created: ${u.createdAt}`]);
    },
  },
  new: {
    usage: "<nickname> <email> [--password <pw>] [--admin] [--moderator]",
    summary: "creates a confirmed, approved local user; without --password, prints a link where the user sets one",
    async run(inv) {
      const [nickname, email] = need(inv, 2, "<nickname> <email>");
      const backend = await inv.backend();
      const u = await backend.call<User & { passwordResetLink: string | null }>("users.new", { nickname, email, password: str(inv, "password"), admin: flag(inv, "admin") ?? false, moderator: flag(inv, "moderator") ?? false });
      inv.out.result(u, () => [`created user ${u.nickname} (${roles(u)}) via ${backend.via}`, ...(u.passwordResetLink ? [`set the password at: ${u.passwordResetLink}`] : [])]);
    },
  },
  set: {
    usage: "<nickname> [--admin|--no-admin] [--moderator|--no-moderator]",
    summary: "grants or revokes the admin and moderator roles",
    async run(inv) {
      const [nickname] = need(inv, 1, "<nickname>");
      const [admin, moderator] = [flag(inv, "admin"), flag(inv, "moderator")];
      if (admin === undefined && moderator === undefined) throw new UsageError("user set needs <nickname> and --[no-]admin or --[no-]moderator");
      const u = await (await inv.backend()).call<User>("users.setRoles", { nickname, admin, moderator });
      inv.out.result(u, () => `updated user ${u.nickname}: ${roles(u)}`);
    },
  },
  activate: batch("users.activate", "activated"),
  deactivate: batch("users.deactivate", "deactivated"),
  delete: { ...batch("users.delete", "deleted"), summary: "deactivates users at once and queues the removal of their data" },
  "reset-password": {
    usage: "<nickname> [--password <pw>] [--link]",
    summary: "sets a new password (random when not given, printed), or with --link prints a reset link",
    async run(inv) {
      const [nickname] = need(inv, 1, "<nickname>");
      const backend = await inv.backend();
      if (flag(inv, "link")) {
        const r = await backend.call<{ token: string; link: string }>("users.resetPasswordLink", { nickname });
        return inv.out.result(r, () => `password reset link for ${nickname}: ${r.link}`);
      }
      const password = str(inv, "password");
      const r = await backend.call<{ nickname: string; password: string }>("users.resetPassword", { nickname, password });
      inv.out.result(password ? { nickname: r.nickname } : r, () => (password ? `password of ${r.nickname} changed` : `new password for ${r.nickname}: ${r.password}`));
    },
  },
  "reset-mfa": {
    usage: "<nickname>",
    summary: "turns two-factor sign-in off and forgets its secret and backup codes",
    async run(inv) {
      const [nickname] = need(inv, 1, "<nickname>");
      const r = await (await inv.backend()).call<{ nickname: string }>("users.resetMfa", { nickname });
      inv.out.result(r, () => `two-factor authentication of ${r.nickname} is off`);
    },
  },
  tag: tagging("users.tag"),
  untag: tagging("users.untag"),
};
