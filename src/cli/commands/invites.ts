// ctl invite …: registration invites (src/trpc/ctl-ops.ts, "invites.*").
import { int, need, str, type Command } from "../command.ts";

interface Invite {
  token: string;
  link: string;
  type: string;
  maxUse: number | null;
  uses: number;
  used: boolean;
  expiresAt: string | null;
}

const line = (i: Invite) => [i.token, i.type, `uses ${i.uses}${i.maxUse ? `/${i.maxUse}` : ""}`, i.expiresAt ? `expires ${i.expiresAt}` : "", i.used ? "used" : i.link].filter(Boolean).join("  ");

export const inviteCommands: Record<string, Command> = {
  list: {
    usage: "",
    summary: "lists every invite, oldest first",
    async run(inv) {
      const invites = await (await inv.backend()).call<Invite[]>("invites.list");
      inv.out.result(invites, () => (invites.length ? invites.map(line) : "no invites"));
    },
  },
  new: {
    usage: "[--max-use <n>] [--expires-at <YYYY-MM-DD>]",
    summary: "creates an invite and prints its registration link",
    async run(inv) {
      const i = await (await inv.backend()).call<Invite>("invites.create", { max_use: int(inv, "max-use"), expires_at: str(inv, "expires-at") });
      inv.out.result(i, () => [`created invite ${i.token} (${i.type})`, `registration link: ${i.link}`]);
    },
  },
  revoke: {
    usage: "<token>",
    summary: "marks an invite used",
    async run(inv) {
      const [token] = need(inv, 1, "<token>");
      const i = await (await inv.backend()).call<Invite>("invites.revoke", { token });
      inv.out.result(i, () => `revoked invite ${i.token}`);
    },
  },
  email: {
    usage: "<email> [--name <name>]",
    summary: "mails a one-time invite (closed registrations with invites enabled)",
    async run(inv) {
      const [email] = need(inv, 1, "<email>");
      const r = await (await inv.backend()).call<{ sent: string }>("invites.email", { email, name: str(inv, "name") });
      inv.out.result(r, () => `invitation sent to ${r.sent}`);
    },
  },
};
