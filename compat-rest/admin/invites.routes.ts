// Admin API: registration invites (privilege users_manage_invites). These fixed /users/<word> paths
// must be listed before the users helper's GET /users/:nickname_or_id.
import { createInvite, emailInvite, listInvites, revokeInvite } from "../../src/domain/invites/invites.ops.ts";
import { route } from "../../src/http/routes/route.ts";
import { admin } from "./paths.ts";
import { InviteSchema, InvitesSchema } from "../../src/views/schemas/admin.ts";
import { renderInvite } from "../../src/views/invite.ts";

const tags = ["Admin: invites"];

export const adminInviteRoutes = [
  route({
    method: "POST",
    path: admin("/users/invite_token"),
    view: InviteSchema,
    summary: "Create a registration invite; its type follows from max_use and expires_at",
    tags,
    operation: createInvite,
    body: createInvite.input,
    response: { description: "Invite: `one_time` without limits, `reusable` with max_use, `date_limited` with expires_at (a date), `reusable_date_limited` with both" },
    handler: async (ctx, { body }) => renderInvite(await createInvite(ctx, body)),
  }),
  route({
    method: "GET",
    path: admin("/users/invites"),
    view: InvitesSchema,
    summary: "Every invite, oldest first",
    tags,
    operation: listInvites,
    response: { description: "`{invites: [Invite]}`" },
    handler: async (ctx) => ({ invites: (await listInvites(ctx, {})).map(renderInvite) }),
  }),
  route({
    method: "POST",
    path: admin("/users/revoke_invite"),
    view: InviteSchema,
    summary: "Revoke an invite (it is marked used)",
    tags,
    operation: revokeInvite,
    body: revokeInvite.input,
    response: { description: "Invite; 404 `{error: \"Not found\"}` for an unknown token" },
    handler: async (ctx, { body }) => renderInvite(await revokeInvite(ctx, body)),
  }),
  route({
    method: "POST",
    path: admin("/users/email_invite"),
    summary: "Mail a one-time invite's registration link",
    tags,
    operation: emailInvite,
    body: emailInvite.input,
    status: 204,
    response: { description: "204 empty; 400 `[{error}]` when registrations are open or invites disabled (or the mail fails); `{error}` in the pleroma profile" },
    // the spec's failure body is an array of {error}; the family's servers (and the pleroma profile) answer {error}
    errors: (e, settings) => (e.kind === "invalid" && settings.profile !== "pleroma" ? { status: 400, body: [{ error: e.message }] } : undefined),
    async handler(ctx, { body }) {
      await emailInvite(ctx, body);
      return undefined;
    },
  }),
];
