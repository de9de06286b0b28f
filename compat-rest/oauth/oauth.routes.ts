// OAuth 2 endpoints as the family's clients use them.
import type { Response } from "express";
import { z } from "zod";
import { createSession } from "../../src/domain/auth/sessions.ts";
import { signInWithPassword } from "../../src/domain/auth/sign-in.ts";
import { checkAuthorizationRequest, createAuthorizationCode, grantToken, revokeToken, tokenGrantInput } from "../../src/domain/auth/tokens.ops.ts";
import { makeCtx, type Ctx } from "../../src/domain/context.ts";
import { DomainError } from "../../src/kernel/errors.ts";
import { sessionCookie } from "../../src/http/credentials.ts";
import { route } from "../../src/http/routes/route.ts";
import { renderTokenResponse } from "../../src/views/app.ts";
import { authorizePage, errorPage, oobCodePage } from "./pages.ts";
import { startMfaSignIn } from "./mfa.routes.ts";
import { MfaRequired, mfaRequiredBody } from "../../src/domain/auth/mfa-tokens.ts";
import { EmptySchema, TokenSchema } from "../../src/views/schemas/misc.ts";

const authorizeQuery = z.object({
  response_type: z.literal("code").optional(),
  client_id: z.string(),
  redirect_uri: z.string(),
  scope: z.union([z.string(), z.array(z.string())]).optional(),
  state: z.string().optional(),
  code_challenge: z.string().optional(),
  code_challenge_method: z.enum(["plain", "S256"]).optional(),
});

// The form nests its fields as authorization[...] like the family's page; flat names work too.
const authorizeBody = z.preprocess(
  (v: any) => ({ ...(v ?? {}), ...(typeof v?.authorization === "object" ? v.authorization : {}) }),
  authorizeQuery.omit({ response_type: true }).extend({ name: z.string().optional(), password: z.string().optional() }),
);

/** Form errors re-render the page; nothing else leaves as a stack trace. */
const htmlErrors = (error: DomainError) => ({ status: error.kind === "unauthorized" ? 401 : error.kind === "forbidden" ? 403 : 400, body: { error: error.message } });

export const oauthRoutes = [
  route({
    method: "POST",
    path: "/oauth/token",
    view: TokenSchema,
    rateLimit: "authentication",
    summary: "Obtain a token (authorization_code, password, refresh_token or client_credentials grant)",
    tags: ["OAuth"],
    operation: grantToken,
    body: tokenGrantInput,
    errors: (error) => (error instanceof MfaRequired ? { status: 403, body: mfaRequiredBody(error) } : undefined),
    async handler(ctx, { body }) {
      return renderTokenResponse(await grantToken(ctx, body));
    },
  }),
  route({
    method: "POST",
    path: "/oauth/revoke",
    view: EmptySchema,
    summary: "Revoke an access or refresh token",
    tags: ["OAuth"],
    operation: revokeToken,
    body: z.object({ token: z.string(), client_id: z.string().optional(), client_secret: z.string().optional() }),
    async handler(ctx, { body }) {
      await revokeToken(ctx, body);
      return {};
    },
  }),
  route({
    method: "GET",
    path: "/oauth/authorize",
    summary: "Sign-in and consent page of the authorization-code flow",
    produces: "text/html",
    tags: ["OAuth"],
    auth: "public",
    query: authorizeQuery,
    errors: htmlErrors,
    async handler(ctx, { query, res }) {
      const request = await checkedRequest(ctx, query, res);
      if (request) res.type("html").send(formPage(ctx, query, request, { signedInAs: ctx.viewer.account?.nickname }));
    },
  }),
  route({
    method: "POST",
    path: "/oauth/authorize",
    rateLimit: "authentication",
    summary: "Submit the sign-in and consent form; redirects with a code or shows it (out-of-band)",
    produces: "text/html",
    tags: ["OAuth"],
    auth: "public",
    body: authorizeBody,
    async handler(ctx, { body, res }) {
      const request = await checkedRequest(ctx, body, res); // before a session exists: a bad request signs nobody in
      if (!request) return;
      try {
        let userCtx = ctx;
        if (body.name && body.password) {
          const account = await signInWithPassword(ctx, body.name, body.password);
          if (account.mfaEnabled) return await startMfaSignIn(ctx, res, account, request, body);
          userCtx = makeCtx(ctx, { account, app: null, scopes: [], via: "session" });
          const session = await createSession(ctx, account.id);
          res.append("Set-Cookie", sessionCookie(ctx.settings, session.token));
        }
        const { code, app, oob } = await createAuthorizationCode(userCtx, body);
        if (oob) {
          res.type("html").send(oobCodePage(app.name, code));
          return;
        }
        const target = new URL(body.redirect_uri);
        target.searchParams.set("code", code);
        if (body.state) target.searchParams.set("state", body.state);
        res.redirect(302, target.toString());
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        const message = error.kind === "unauthorized" ? "Invalid username or password" : error.message;
        res.status(error.kind === "unauthorized" ? 401 : 403).type("html").send(formPage(ctx, body, request, { error: message }));
      }
    },
  }),
];

type AuthorizeRequest = z.output<typeof authorizeQuery>;
type CheckedRequest = Awaited<ReturnType<typeof checkAuthorizationRequest>>;

/** The app and scopes of the request, or null after answering with an error page. */
async function checkedRequest(ctx: Ctx, input: AuthorizeRequest, res: Response): Promise<CheckedRequest | null> {
  try {
    return await checkAuthorizationRequest(ctx, input);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    res.status(400).type("html").send(errorPage(error.message));
    return null;
  }
}

/** The sign-in and consent form, carrying the whole request (PKCE included) to the next POST. */
function formPage(ctx: Ctx, input: AuthorizeRequest, { app, scopes }: CheckedRequest, extra: { signedInAs?: string; error?: string }) {
  return authorizePage({
    instanceName: ctx.settings.instanceName,
    appName: app.name,
    scopes,
    clientId: input.client_id,
    redirectUri: input.redirect_uri,
    state: input.state,
    codeChallenge: input.code_challenge,
    codeChallengeMethod: input.code_challenge_method,
    ...extra,
  });
}
