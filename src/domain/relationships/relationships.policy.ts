// Who may run the relationships area's operations, and the shape most of them share: the signed-in
// account acts on one account named by id or nickname and gets the Relationship back.
import { z } from "zod";
import type { Account } from "../../generated/prisma/client.ts";
import { getAccount } from "../accounts/lookup.ts";
import { requireAccount } from "../auth/policy.ts";
import type { Ctx } from "../context.ts";
import { operation } from "../operation.ts";
import type { Access } from "../auth/access.ts";
import { relationshipWith, type RelationshipState } from "./relationships.read.ts";

export function signedIn(ctx: Ctx): void {
  requireAccount(ctx);
}

export const accountInput = z.object({ id: z.string() });

export function relationshipAction<S extends z.ZodObject<{ id: z.ZodString }>>(
  name: string,
  input: S,
  act: (ctx: Ctx, me: Account, target: Account, input: z.output<S>) => Promise<unknown>,
  /** who may run it (src/domain/auth/access.ts), read by the REST route and GraphQL field naming it */
  access?: Access,
) {
  return operation({
    name,
    access,
    input,
    authorize: signedIn,
    async run(ctx, parsed): Promise<RelationshipState> {
      const me = requireAccount(ctx);
      const target = await getAccount(ctx, (parsed as { id: string }).id);
      await act(ctx, me, target, parsed);
      return relationshipWith(ctx, me.id, target);
    },
  });
}
