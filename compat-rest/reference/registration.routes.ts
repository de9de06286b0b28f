// Registration (POST /api/v1/accounts) and the link of the confirmation e-mail.
//
// Who may register: like the family's servers (and the reference API), only a request carrying an
// app's token — pleroma-fe sends the client_credentials token of its app; the new user's token is
// issued to that app with the app's scopes. A user's token also names an app and is accepted.
// Without any app: 403 {"error": "Invalid credentials"} (the family's text for this endpoint).
import type { Request } from "express";
import { parse as parseCookie } from "cookie";
import { z } from "zod";
import { confirmEmail, FIELD_MESSAGES, register } from "../../src/domain/accounts/registration.ops.ts";
import { DomainError, httpStatus } from "../../src/kernel/errors.ts";
import { bool } from "../inputs.ts";
import { invalidTokenPage } from "../oauth/password-reset.pages.ts";
import { route } from "../../src/http/routes/route.ts";
import { renderTokenResponse } from "../../src/views/app.ts";
import { RegisteredSchema } from "../../src/views/schemas/tools.ts";

const text = z.string().optional().nullable();

const registerBody = z.object({
  username: text,
  /** pleroma-fe sends the nickname under both names */
  nickname: text,
  email: text,
  password: text,
  agreement: bool().optional().nullable(),
  locale: text,
  reason: text,
  fullname: text,
  bio: text,
  token: text,
  language: text,
  captcha_solution: text,
  captcha_token: text,
  captcha_answer_data: text,
});

const ERROR_CODES: Record<string, string> = {
  [FIELD_MESSAGES.blank]: "ERR_BLANK",
  [FIELD_MESSAGES.taken]: "ERR_TAKEN",
  [FIELD_MESSAGES.accepted]: "ERR_ACCEPTED",
  [FIELD_MESSAGES.blocked]: "ERR_BLOCKED",
};
const errorCode = (description: string) => ERROR_CODES[description] ?? (description.startsWith("is too long") ? "ERR_TOO_LONG" : "ERR_INVALID");

/**
 * Field errors in the reference API's shape, which also carries the family's `error` string:
 * {"error": "Validation failed: Email has already been taken", "details": {"email": [{"error": "ERR_TAKEN", "description": "has already been taken"}]}}
 * 422 for the account's fields, 400 for a bad invite token or an unreadable parameter.
 */
export function registrationErrorShape(error: DomainError) {
  if (!error.fields) return undefined;
  const details = Object.fromEntries(Object.entries(error.fields).map(([field, description]) => [field, [{ error: errorCode(description), description }]]));
  return { status: httpStatus[error.kind], body: { error: error.message, details } };
}

/** The browser's language: the userLanguage cookie (set by the family's frontends), else the first Accept-Language tag. */
function browserLanguage(req: Request): string | undefined {
  const cookie = parseCookie(req.get("cookie") ?? "").userLanguage;
  if (cookie) return cookie;
  const first = (req.get("accept-language") ?? "").split(",")[0]?.split(";")[0]?.trim();
  return first && first !== "*" ? first : undefined;
}

/** The family's answers when the account exists but cannot sign in yet (200, no token). */
const PENDING = {
  approval_pending: { identifier: "awaiting_approval", message: "You have been registered. You'll be able to log in once your account is approved." },
  confirmation_pending: { identifier: "missing_confirmed_email", message: "You have been registered. Please check your email for further instructions." },
} as const;

export const registrationRoutes = [
  route({
    method: "POST",
    path: "/api/v1/accounts",
    view: RegisteredSchema,
    rateLimit: "app_account_creation",
    summary: "Register an account (needs an app token); answers with a token, or with why the account cannot sign in yet",
    tags: ["Accounts"],
    // the app is checked by the operation: the family answers 403 "Invalid credentials" without one
    operation: register,
    body: registerBody,
    errors: registrationErrorShape,
    async handler(ctx, { body, req }) {
      const { nickname, ...rest } = body;
      // an invalid language the browser sent is ignored; an invalid one the client chose is an error
      const fallback = browserLanguage(req);
      const language = body.language || (fallback && /^[A-Za-z]{2,3}([_-][A-Za-z0-9]{1,8})*$/.test(fallback) ? fallback : undefined);
      const result = await register(ctx, { ...rest, username: body.username ?? nickname, language });
      if (result.status === "active") return renderTokenResponse(result.issued!);
      return PENDING[result.status];
    },
  }),
  route({
    method: "GET",
    path: "/api/account/confirm_email/:user_id/:token",
    summary: "The link of the confirmation e-mail: confirms the address and redirects to /",
    tags: ["Accounts"],
    operation: confirmEmail,
    params: z.object({ user_id: z.string(), token: z.string() }),
    async handler(ctx, { params, res }) {
      try {
        await confirmEmail(ctx, params);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        res.status(400).set("Cache-Control", "no-store").type("html").send(invalidTokenPage("Invalid confirmation link"));
        return;
      }
      res.redirect(302, "/");
    },
  }),
];
