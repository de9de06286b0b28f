// Registration invites of the admin API: create (the type follows from the limits given), list,
// revoke, and send one by e-mail. Registration (accounts/registration.ops.ts) spends them.
import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { Invite } from "../../generated/prisma/client.ts";
import type { Mail } from "../../mail/mailer.ts";
import type { Ctx } from "../context.ts";
import { escapeHtml } from "../../kernel/escape.ts";
import { Invalid, NotFound } from "../../kernel/errors.ts";
import { int, emailAddress } from "../inputs.ts";
import { operation } from "../operation.ts";

export type InviteType = "one_time" | "reusable" | "date_limited" | "reusable_date_limited";

/** The family's rule: the limits given decide the type, once, at creation. */
export function inviteTypeOf(limits: { maxUse?: number | null; expiresAt?: Date | null }): InviteType {
  const reusable = limits.maxUse != null;
  const dated = limits.expiresAt != null;
  return reusable && dated ? "reusable_date_limited" : reusable ? "reusable" : dated ? "date_limited" : "one_time";
}


/** A calendar date (`2020-04-20`); the invite works through that whole UTC day. */
const dateOnly = z.string().refine((s) => {
  const ms = Date.parse(`${s}T00:00:00Z`);
  return /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(ms) && new Date(ms).toISOString().startsWith(s); // 2024-02-30 is no date
}, "Invalid date");
const midnightUtc = (date: string | null | undefined) => (date ? new Date(`${date}T00:00:00Z`) : null);

async function createInviteRow(ctx: Ctx, limits: { maxUse?: number | null; expiresAt?: Date | null }): Promise<Invite> {
  return ctx.db.invite.create({
    data: {
      // 32 random bytes like the family's tokens; url-safe, since they travel in links
      token: randomBytes(32).toString("base64url"),
      maxUse: limits.maxUse ?? null,
      expiresAt: limits.expiresAt ?? null,
      inviteType: inviteTypeOf(limits),
      createdById: ctx.viewer.account?.id ?? null,
      createdAt: ctx.clock(),
    },
  });
}

export const createInvite = operation({
  name: "admin.invites.create",
  access: { scopes: ["admin:write:invites"], privilege: "users_manage_invites" },
  input: z.object({ max_use: int().pipe(z.number().min(1)).optional().nullable(), expires_at: dateOnly.optional().nullable() }),
  run: (ctx, input) => createInviteRow(ctx, { maxUse: input.max_use, expiresAt: midnightUtc(input.expires_at) }),
});

/** Every invite, oldest first (the family's order). */
export const listInvites = operation({
  name: "admin.invites.list",
  access: { scopes: ["admin:read:invites"], privilege: "users_manage_invites" },
  input: z.object({}),
  run: (ctx) => ctx.db.invite.findMany({ orderBy: { id: "asc" } }),
});

/** Marks the invite used, whatever its type; 404 for an unknown token. */
export const revokeInvite = operation({
  name: "admin.invites.revoke",
  access: { scopes: ["admin:write:invites"], privilege: "users_manage_invites" },
  input: z.object({ token: z.string().min(1) }),
  async run(ctx, input) {
    const { count } = await ctx.db.invite.updateMany({ where: { token: input.token }, data: { used: true } });
    if (count === 0) throw NotFound();
    return ctx.db.invite.findUniqueOrThrow({ where: { token: input.token } });
  },
});

/** The pages that register with an invite: the family's front end answers `/registration/:token`. */
export const invitationLink = (ctx: Ctx, token: string) => `${ctx.settings.baseUrl}/registration/${encodeURIComponent(token)}`;

function invitationMail(ctx: Ctx, invite: Invite, to: { email: string; name?: string | null }): Mail {
  const instance = ctx.config.get("instance", "name");
  const inviter = ctx.viewer.account ? ctx.viewer.account.displayName || ctx.viewer.account.nickname : instance;
  const link = invitationLink(ctx, invite.token);
  const subject = `Invitation to ${instance}`;
  const greeting = to.name ? `Hello ${to.name},` : "Hello,";
  const lines = [greeting, `${inviter} invites you to join ${instance}.`, "Open this link to register:"];
  // quotes and line breaks cannot reach the header: the name is display text only
  const name = to.name?.replace(/["\\\r\n]/g, "").trim();
  return {
    to: name ? `"${name}" <${to.email}>` : to.email,
    subject,
    text: `${lines.join("\n")}\n\n${link}\n`,
    html: `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head><body>
<h3>You are invited to ${escapeHtml(instance)}</h3>
${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join("\n")}
<p><a href="${escapeHtml(link)}">Accept the invitation</a></p>
<p>${escapeHtml(link)}</p>
</body></html>`,
  };
}

/**
 * Creates a one-time invite and mails its registration link. Only useful on a closed instance that
 * admits invitees, so the family refuses otherwise, with these messages (registrations first).
 */
export const emailInvite = operation({
  name: "admin.invites.email",
  access: { scopes: ["admin:write:invites"], privilege: "users_manage_invites" },
  input: z.object({ email: emailAddress(), name: z.string().optional().nullable() }),
  async run(ctx, input) {
    if (ctx.config.get("instance", "registrations_open")) throw Invalid("To send invites you need to set the `registrations_open` option to false.");
    if (!ctx.config.get("instance", "invites_enabled")) throw Invalid("To send invites you need to set the `invites_enabled` option to true.");
    const invite = await createInviteRow(ctx, {});
    try {
      await ctx.mailer.send(invitationMail(ctx, invite, input));
    } catch (error) {
      // the family answers a delivery failure with 400 too; the cause stays in the server's log
      console.error(`invitation mail to ${input.email} failed:`, error);
      throw Invalid("The invitation e-mail could not be sent.");
    }
    return invite;
  },
});
