// Admin API: a registration invite.
import type { Invite } from "../../src/generated/prisma/client.ts";

export function renderInvite(invite: Invite) {
  return {
    id: invite.id,
    token: invite.token,
    used: invite.used,
    expires_at: invite.expiresAt ? invite.expiresAt.toISOString().slice(0, 10) : null,
    uses: invite.uses,
    max_use: invite.maxUse,
    invite_type: invite.inviteType,
  };
}
