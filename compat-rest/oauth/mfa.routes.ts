// The second step of a sign-in for accounts with MFA, at the family's paths: the API challenge
// (`POST /oauth/mfa/challenge`, after the password grant answered `mfa_required`) and the sign-in
// page's code form (`GET /oauth/mfa`, posting to `POST /oauth/mfa/verify`).
import type { Response } from "express";
import { z } from "zod";
import { challengeInput, mfaChallenge, passMfaChallenge } from "../../src/domain/auth/mfa.ops.ts";
import { createMfaToken, findMfaToken } from "../../src/domain/auth/mfa-tokens.ts";
import { createSession } from "../../src/domain/auth/sessions.ts";
import { createAuthorizationCode } from "../../src/domain/auth/tokens.ops.ts";
import { makeCtx, type Ctx } from "../../src/domain/context.ts";
import { DomainError } from "../../src/kernel/errors.ts";
import type { Account, OAuthApp } from "../../src/generated/prisma/client.ts";
import { sessionCookie } from "../../src/http/credentials.ts";
import { route } from "../../src/http/routes/route.ts";
import { renderTokenResponse } from "../../src/views/app.ts";
import { mfaPage, type MfaForm } from "./mfa.pages.ts";
import { errorPage, oobCodePage } from "./pages.ts";
import { TokenSchema } from "../../src/views/schemas/misc.ts";

const pkce = { code_challenge: z.string().optional(), code_challenge_method: z.enum(["plain", "S256"]).optional() };
const showQuery = z.object({ mfa_token: z.string(), challenge_type: z.enum(["totp", "recovery"]).default("totp"), ...pkce });
// the form nests its fields as mfa[...] like the family's page; flat names work too
const verifyBody = z.preprocess((v: any) => ({ ...(v ?? {}), ...(typeof v?.mfa === "object" && v.mfa !== null ? v.mfa : {}) }), challengeInput.extend(pkce));

const EXPIRED = "This sign-in has expired or was already completed. Please sign in again.";

/** The page carries the mfa_token: never cached, never sent on as a Referer. */
function sendPage(res: Response, status: number, html: string) {
  res.status(status).set({ "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" }).type("html").send(html);
}

const formOf = (ctx: Ctx, mfaToken: string, q: { challenge_type: "totp" | "recovery"; code_challenge?: string; code_challenge_method?: string }, error?: string): MfaForm => ({
  instanceName: ctx.settings.instanceName,
  mfaToken,
  challengeType: q.challenge_type,
  codeChallenge: q.code_challenge,
  codeChallengeMethod: q.code_challenge_method,
  error,
});

/**
 * The sign-in page's password was right but the account has MFA: hold the authorization back and
 * ask for the code. No session and no code exist until `/oauth/mfa/verify` passes.
 */
export async function startMfaSignIn(
  ctx: Ctx,
  res: Response,
  account: Account,
  request: { app: OAuthApp; scopes: string[] },
  body: { redirect_uri: string; state?: string; code_challenge?: string; code_challenge_method?: "plain" | "S256" },
) {
  const mfaToken = await createMfaToken(ctx, { account, app: request.app, scopes: request.scopes, purpose: "authorize", redirectUri: body.redirect_uri, state: body.state });
  sendPage(res, 200, mfaPage(formOf(ctx, mfaToken, { challenge_type: "totp", ...body })));
}

export const oauthMfaRoutes = [
  route({
    method: "POST",
    path: "/oauth/mfa/challenge",
    view: TokenSchema,
    rateLimit: "authentication",
    summary: "Exchange an mfa_token and a TOTP or recovery code for the token the password grant held back",
    tags: ["OAuth"],
    operation: mfaChallenge,
    body: mfaChallenge.input,
    async handler(ctx, { body }) {
      return renderTokenResponse(await mfaChallenge(ctx, body));
    },
  }),
  route({
    method: "GET",
    path: "/oauth/mfa",
    summary: "The sign-in page's second step: the form asking for a TOTP code (or a recovery code)",
    produces: "text/html",
    tags: ["OAuth"],
    auth: "public",
    query: showQuery,
    async handler(ctx, { query, res }) {
      if (!(await findMfaToken(ctx, query.mfa_token, "authorize"))) return sendPage(res, 400, errorPage(EXPIRED));
      sendPage(res, 200, mfaPage(formOf(ctx, query.mfa_token, query)));
    },
  }),
  route({
    method: "POST",
    path: "/oauth/mfa/verify",
    summary: "Submit the code form; on success signs in and redirects with the authorization code (or shows it, out-of-band)",
    produces: "text/html",
    tags: ["OAuth"],
    auth: "public",
    body: verifyBody,
    async handler(ctx, { body, res }) {
      let row;
      try {
        row = await passMfaChallenge(ctx, "authorize", body);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        // the code passed but the account may no longer sign in (deactivated meanwhile, …)
        if (error.kind !== "invalid") return sendPage(res, 403, errorPage(error.message));
        // a wrong code shows the form again while the sign-in is still pending
        if (await findMfaToken(ctx, body.mfa_token, "authorize")) return sendPage(res, 401, mfaPage(formOf(ctx, body.mfa_token, body, "Two-factor authentication failed.")));
        return sendPage(res, 400, errorPage(EXPIRED));
      }
      const account = row.account;
      const session = await createSession(ctx, account.id);
      res.append("Set-Cookie", sessionCookie(ctx.settings, session.token));
      const userCtx = makeCtx(ctx, { account, app: null, scopes: [], via: "session" });
      const { code, app, oob } = await createAuthorizationCode(userCtx, {
        client_id: row.app.clientId,
        redirect_uri: row.redirectUri ?? "",
        scope: row.scopes,
        code_challenge: body.code_challenge,
        code_challenge_method: body.code_challenge_method,
      });
      if (oob) return sendPage(res, 200, oobCodePage(app.name, code));
      const target = new URL(row.redirectUri!);
      target.searchParams.set("code", code);
      if (row.state) target.searchParams.set("state", row.state);
      res.redirect(302, target.toString());
    },
  }),
];
