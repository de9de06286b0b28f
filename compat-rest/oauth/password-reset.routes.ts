// Password reset by e-mail, as the family serves it: POST /auth/password mails a link to
// GET {ext}/password_reset/:token (an HTML form), which posts to POST {ext}/password_reset.
import type { Request, Response } from "express";
import { z } from "zod";
import { passwordResetTarget, requestPasswordReset, resetPasswordWithToken } from "../../src/domain/accounts/account-actions.ops.ts";
import type { Ctx } from "../../src/domain/context.ts";
import { DomainError } from "../../src/kernel/errors.ts";
import { route } from "../../src/http/routes/route.ts";
import { invalidTokenPage, resetFormPage, resetSuccessPage } from "./password-reset.pages.ts";

const text = z.string().optional().nullable();

// The family's form nests its fields as data[...]; flat names (JSON clients) work too.
const resetBody = z.preprocess(
  (v: any) => ({ ...(v ?? {}), ...(typeof v?.data === "object" && v.data !== null ? v.data : {}) }),
  z.object({ token: z.string(), password: text, password_confirmation: text }),
);

/** Pages carrying a secret in their URL: never cached, never sent on as a Referer. */
function sendPage(res: Response, status: number, html: string) {
  res.status(status).set({ "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" }).type("html").send(html);
}

/** A JSON answer when the client asks for JSON rather than a page (browsers send text/html first). */
const wantsJson = (req: Request) => req.accepts(["html", "json"]) === "json";

const instanceName = (ctx: Ctx) => ctx.config.get("instance", "name");

export const passwordResetRoutes = [
  route({
    method: "POST",
    path: "/auth/password",
    rateLimit: "password_reset",
    summary: "Request a password reset e-mail (by e-mail address or nickname); 204 whether or not the account exists",
    tags: ["Accounts"],
    operation: requestPasswordReset,
    body: z.object({ email: text, nickname: text }),
    status: 204,
    async handler(ctx, { body }) {
      await requestPasswordReset(ctx, body);
      return undefined;
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/$ns/password_reset/:token",
    summary: "The password reset form of an e-mailed link",
    produces: "text/html",
    tags: ["Accounts"],
    auth: "public",
    params: z.object({ token: z.string() }),
    async handler(ctx, { params, res }) {
      try {
        const row = await passwordResetTarget(ctx, params.token);
        sendPage(res, 200, resetFormPage({ instanceName: instanceName(ctx), nickname: row.account.nickname, token: params.token, action: `/api/v1/${ctx.settings.namespace}/password_reset` }));
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        sendPage(res, 404, invalidTokenPage());
      }
    },
  }),
  route({
    method: "POST",
    path: "/api/v1/$ns/password_reset",
    summary: "Set a new password with an e-mailed reset token (form fields data[token], data[password], data[password_confirmation])",
    produces: "text/html",
    tags: ["Accounts"],
    auth: "public",
    body: resetBody,
    errors: (error) => ({ status: error.kind === "not_found" ? 404 : 400, body: { error: error.message } }),
    async handler(ctx, { body, req, res }) {
      try {
        await resetPasswordWithToken(ctx, body);
      } catch (error) {
        if (!(error instanceof DomainError) || wantsJson(req)) throw error;
        if (error.kind === "not_found") return sendPage(res, 404, invalidTokenPage());
        // the token is still good: show the form again with what was wrong
        const row = await passwordResetTarget(ctx, body.token).catch(() => null);
        if (!row) return sendPage(res, 404, invalidTokenPage());
        return sendPage(res, 400, resetFormPage({ instanceName: instanceName(ctx), nickname: row.account.nickname, token: body.token, action: req.path, error: error.message }));
      }
      if (wantsJson(req)) return { status: "success" };
      sendPage(res, 200, resetSuccessPage(instanceName(ctx)));
    },
  }),
];
