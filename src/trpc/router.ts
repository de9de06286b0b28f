// tRPC for first-party tools: the admin UI's session procedures and the ctl CLI's remote operations.
import { initTRPC, TRPCError } from "@trpc/server";
import { z } from "zod";
import { createLocalAccount, resetPassword, setRoles } from "../domain/accounts/accounts.ops.ts";
import { invalidateSession, createSession } from "../domain/auth/sessions.ts";
import { signInWithPassword } from "../domain/auth/sign-in.ts";
import { requireSecondFactor } from "../domain/auth/second-factor.ts";
import type { Ctx } from "../domain/context.ts";
import { DomainError, Forbidden, Throttled } from "../kernel/errors.ts";
import { findUnsafeInput, withLengthLimits } from "../domain/input-limits.ts";
import type { Account } from "../generated/prisma/client.ts";
import { ctlOpNames, ctlOps } from "./ctl-ops.ts";

export interface TrpcContext {
  ctx: Ctx;
  /** set when the request proves it comes from `ctl` on this machine (or carries the admin token) */
  system: Ctx | null;
  sessionToken?: string;
  setCookie(value: string): void;
  clearCookie(): void;
}

const CODES = { unauthorized: "UNAUTHORIZED", forbidden: "FORBIDDEN", not_found: "NOT_FOUND", invalid: "BAD_REQUEST", conflict: "CONFLICT", unprocessable: "UNPROCESSABLE_CONTENT" } as const;

const t = initTRPC.context<TrpcContext>().create({
  errorFormatter: ({ shape, error }) => ({ ...shape, data: { ...shape.data, stack: undefined, fields: error.cause instanceof DomainError ? error.cause.fields : undefined } }),
});

/** Domain errors become tRPC errors with the same message; anything else is an internal error. */
const mapErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.cause instanceof Throttled) throw new TRPCError({ code: "TOO_MANY_REQUESTS", message: "Throttled", cause: result.error.cause });
  if (!result.ok && result.error.cause instanceof DomainError) {
    const cause = result.error.cause;
    throw new TRPCError({ code: CODES[cause.kind], message: cause.message, cause });
  }
  return result;
});

/** The text rule of the input boundary (src/domain/input-limits.ts): NUL and unpaired surrogates → 422. */
const safeInput = t.middleware(async ({ getRawInput, next }) => {
  const problem = findUnsafeInput(await getRawInput(), "input");
  if (problem?.kind === "depth") throw new TRPCError({ code: "BAD_REQUEST", message: `${problem.where}: nested too deeply` });
  if (problem) throw new TRPCError({ code: "UNPROCESSABLE_CONTENT", message: `${problem.where}: text must not contain NUL characters or unpaired surrogates.` });
  return next();
});

const procedure = t.procedure.use(safeInput).use(mapErrors);
const systemProcedure = procedure.use(({ ctx, next }) => {
  if (!ctx.system) throw new TRPCError({ code: "UNAUTHORIZED", message: "ctl credentials required" });
  return next({ ctx: { ...ctx, system: ctx.system } });
});

const summary = (a: Account) => ({ id: a.id, nickname: a.nickname, email: a.email, isAdmin: a.isAdmin, isModerator: a.isModerator });

export const appRouter = t.router({
  session: t.router({
    /**
     * With MFA on, `code` (TOTP or backup code) is needed too: without it 401 `mfa_required`.
     * `staffOnly` (the admin UI): an account that is neither admin nor moderator gets no session (403).
     */
    signIn: procedure.input(withLengthLimits(z.object({ username: z.string(), password: z.string(), code: z.string().optional(), staffOnly: z.boolean().optional() }))).mutation(async ({ ctx, input }) => {
      const account = await signInWithPassword(ctx.ctx, input.username, input.password);
      await requireSecondFactor(ctx.ctx, account, input.code);
      if (input.staffOnly && !account.isAdmin && !account.isModerator) throw Forbidden("Only administrators and moderators can use the admin interface.");
      const session = await createSession(ctx.ctx, account.id);
      ctx.setCookie(session.token);
      return summary(account);
    }),
    signOut: procedure.mutation(async ({ ctx }) => {
      if (ctx.sessionToken) await invalidateSession(ctx.ctx, ctx.sessionToken);
      ctx.clearCookie();
      return { ok: true };
    }),
    me: procedure.query(({ ctx }) => (ctx.ctx.viewer.account ? summary(ctx.ctx.viewer.account) : null)),
  }),
  ctl: t.router({
    ping: systemProcedure.query(() => ({ ok: true, pid: process.pid })),
    userNew: systemProcedure.input(createLocalAccount.input).mutation(async ({ ctx, input }) => summary(await createLocalAccount(ctx.system, input))),
    userSet: systemProcedure.input(setRoles.input).mutation(async ({ ctx, input }) => summary(await setRoles(ctx.system, input))),
    resetPassword: systemProcedure.input(resetPassword.input).mutation(({ ctx, input }) => resetPassword(ctx.system, input)),
    /** every other ctl command: the operation named, its input validated by the operation itself (src/trpc/ctl-ops.ts) */
    run: systemProcedure.input(z.object({ name: z.enum(ctlOpNames), input: z.unknown().optional() })).mutation(({ ctx, input }) => ctlOps[input.name](ctx.system, input.input ?? {})),
  }),
});

export type AppRouter = typeof appRouter;
