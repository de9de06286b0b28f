// The sign-up pages, plain HTML forms that work whether or not a frontend is installed, at the paths the
// family's front ends answer: `/registration` (open sign-up, linked from the landing page; the same
// registration operation rules as `POST /api/v1/accounts`: open registrations, captcha, approval reason,
// e-mail confirmation) and `/registration/<token>` (what an invitation e-mail links to). Each posts back
// to its own path; problems show on the form again.
import type { Response } from "express";
import { z } from "zod";
import { safeEqual } from "../../src/domain/auth/secrets.ts";
import { registerByInvite, registerFromPage } from "../../src/domain/accounts/registration.ops.ts";
import { getCaptcha } from "../../src/domain/captcha/captcha.ops.ts";
import type { Ctx } from "../../src/domain/context.ts";
import { DomainError } from "../../src/kernel/errors.ts";
import { escapeHtml as esc } from "../../src/kernel/escape.ts";
import { route } from "../../src/http/routes/route.ts";
import { page } from "./password-reset.pages.ts";

const text = z.string().optional().nullable();
const tokenParam = z.object({ token: z.string() });

/** The invite's secret is in the URL: never cached, never sent on as a Referer. */
function sendPage(res: Response, status: number, html: string) {
  res.status(status).set({ "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" }).type("html").send(html);
}

type Values = { username?: string | null; email?: string | null; fullname?: string | null; reason?: string | null };

/** The form; `token` is the invite's (null on the open sign-up page). */
async function formPage(ctx: Ctx, token: string | null, values: Values = {}, error?: string) {
  const name = ctx.config.get("instance", "name");
  const captcha = await getCaptcha(ctx, {});
  const approval = !!ctx.config.get("instance", "account_approval_required");
  const field = (id: string, label: string, type: string, extra = "") => `<label for="${id}">${label}</label><input id="${id}" name="${id}" type="${type}" ${extra}>`;
  const action = token === null ? "/registration" : `/registration/${esc(encodeURIComponent(token))}`;
  return page(
    `Join ${name}`,
    `<h1>${esc(name)}</h1>
<h2>${token === null ? "Create your account" : "You are invited: create your account"}</h2>
${error ? `<p class="error" role="alert">${esc(error)}</p>` : ""}
<form method="post" action="${action}">
${field("username", "Username", "text", `value="${esc(values.username ?? "")}" autocomplete="username" required`)}
${field("fullname", "Display name", "text", `value="${esc(values.fullname ?? "")}"`)}
${field("email", "E-mail", "email", `value="${esc(values.email ?? "")}" autocomplete="email"`)}
${field("password", "Password", "password", 'autocomplete="new-password" required')}
${field("password_confirmation", "Confirm the password", "password", 'autocomplete="new-password" required')}
${approval ? `<label for="reason">Why do you want to join?</label><textarea id="reason" name="reason" required>${esc(values.reason ?? "")}</textarea>` : ""}
${
  captcha.type === "native"
    ? `<img src="${esc(captcha.url)}" alt="CAPTCHA"><input type="hidden" name="captcha_token" value="${esc(captcha.token)}"><input type="hidden" name="captcha_answer_data" value="${esc(captcha.answer_data)}">${field("captcha_solution", "The text in the picture", "text", 'autocomplete="off" required')}`
    : ""
}
<label><input type="checkbox" name="agreement" value="true" required style="display:inline;width:auto"> I accept the rules of this instance</label>
<button type="submit">Create account</button></form>`,
  );
}

const DONE = {
  active: "Your account is ready: sign in with your username and password.",
  approval_pending: "You have been registered. You'll be able to log in once your account is approved.",
  confirmation_pending: "You have been registered. Please check your email for further instructions.",
} as const;

const formBody = z.object({ username: text, fullname: text, email: text, password: text, password_confirmation: text, agreement: text, reason: text, captcha_token: text, captcha_solution: text, captcha_answer_data: text });

/** Registers from a posted form (with the invite's token, or through the open sign-up) and answers a page. */
async function submit(ctx: Ctx, res: Response, token: string | null, body: z.infer<typeof formBody>) {
  if (!safeEqual(body.password ?? "", body.password_confirmation ?? "")) return sendPage(res, 422, await formPage(ctx, token, body, "The passwords do not match."));
  try {
    const { password_confirmation: _, agreement, ...input } = body;
    const fields = { ...input, agreement: agreement === "true" || agreement === "on" };
    const result = token === null ? await registerFromPage(ctx, fields) : await registerByInvite(ctx, { ...fields, token });
    const name = ctx.config.get("instance", "name");
    sendPage(res, 200, page(`Welcome to ${name}`, `<h1>${esc(name)}</h1><h2>Welcome, @${esc(result.account.nickname)}!</h2><p>${esc(DONE[result.status])}</p>`));
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const fields = error.fields ? Object.entries(error.fields).map(([k, v]) => `${k} ${v}`).join("; ") : "";
    sendPage(res, error.kind === "forbidden" ? 403 : 422, await formPage(ctx, token, body, fields || error.message));
  }
}

export const inviteRegistrationRoutes = [
  route({
    method: "GET",
    path: "/registration",
    summary: "The open sign-up form (HTML), linked from the landing page; a notice when registrations are closed",
    produces: "text/html",
    tags: ["Accounts"],
    auth: "public",
    async handler(ctx, { res }) {
      const instance = ctx.config.group("instance");
      if (!instance.registrations_open) {
        const name = ctx.config.get("instance", "name");
        const why = instance.invites_enabled ? "Registration is by invitation only: the invitation e-mail links to the sign-up form." : "Registrations are closed.";
        return sendPage(res, 403, page(`Join ${name}`, `<h1>${esc(name)}</h1><p class="error" role="alert">${esc(why)}</p>`));
      }
      sendPage(res, 200, await formPage(ctx, null));
    },
  }),
  route({
    method: "POST",
    path: "/registration",
    rateLimit: "app_account_creation",
    summary: "Register from the open sign-up page (form fields username, email, password, password_confirmation, agreement, fullname, reason, captcha_*)",
    produces: "text/html",
    tags: ["Accounts"],
    auth: "public",
    body: formBody,
    async handler(ctx, { body, res }) {
      await submit(ctx, res, null, body);
    },
  }),
  route({
    method: "GET",
    path: "/registration/:token",
    summary: "The registration form an invitation e-mail links to (HTML)",
    produces: "text/html",
    tags: ["Accounts"],
    auth: "public",
    params: tokenParam,
    async handler(ctx, { params, res }) {
      sendPage(res, 200, await formPage(ctx, params.token));
    },
  }),
  route({
    method: "POST",
    path: "/registration/:token",
    rateLimit: "app_account_creation",
    summary: "Register with an invite from the invitation page (form fields username, email, password, password_confirmation, agreement, fullname)",
    produces: "text/html",
    tags: ["Accounts"],
    auth: "public",
    params: tokenParam,
    body: formBody,
    async handler(ctx, { params, body, res }) {
      await submit(ctx, res, params.token, body);
    },
  }),
];
