// The later family's frontend switcher: the API its web client calls (`/api/v1/<family>/preferred_frontend…`)
// and the server-rendered page (`/<family>/frontend`). The choice is the browser's `preferred_frontend`
// cookie, which `/` honours when it names an installed frontend (src/http/frontends.ts). Like the
// family, the API takes any token or none; unlike it, an unknown choice is refused (400) instead of
// stored, and the cookie lasts a year instead of the browser session (docs/compatibility.md).
import type { Response } from "express";
import { parse as parseCookie, serialize } from "cookie";
import { z } from "zod";
import type { Ctx } from "../../src/domain/context.ts";
import { availableFrontends, choosePreferredFrontend, PREFERRED_FRONTEND_COOKIE } from "../../src/domain/frontends/preferred-frontend.ops.ts";
import { DomainError } from "../../src/kernel/errors.ts";
import { escapeHtml as esc } from "../../src/kernel/escape.ts";
import { FORM_CSRF_FIELD, formCsrfToken, formCsrfValid } from "../../src/http/csrf.ts";
import { page } from "../oauth/pages.ts";
import { route } from "../../src/http/routes/route.ts";
import { PreferredFrontendSchema } from "../../src/views/schemas/tools.ts";

const tags = ["Frontend switcher"];
const YEAR_SECONDS = 365 * 24 * 3600;
const secure = (ctx: Ctx) => ctx.settings.baseUrl.startsWith("https:");

function setPreferredCookie(ctx: Ctx, res: Response, choice: string) {
  res.append("Set-Cookie", serialize(PREFERRED_FRONTEND_COOKIE, choice, { httpOnly: true, sameSite: "lax", path: "/", secure: secure(ctx), maxAge: YEAR_SECONDS }));
}

function switcherPage(choices: string[], current: string | undefined, token: string, error?: string) {
  const options = choices.map((c) => `<option value="${esc(c)}"${c === current ? " selected" : ""}>${esc(c)}</option>`).join("");
  const form = choices.length
    ? `<form method="post"><input type="hidden" name="${FORM_CSRF_FIELD}" value="${esc(token)}"><label for="frontend">Frontend</label><select id="frontend" name="frontend">${options}</select><button type="submit">Switch</button></form>`
    : "<p>No frontend is installed to choose from.</p>";
  return page("Switch frontend", `<h1>Switch frontend</h1>${error ? `<p class="error">${esc(error)}</p>` : ""}${form}`);
}

export const frontendSwitcherRoutes = [
  route({
    method: "GET",
    path: "/api/v1/$family/preferred_frontend/available",
    summary: "The frontends a browser may pick for `/`: installed frontends as \"name/ref\"",
    tags,
    operation: availableFrontends,
    response: { description: "an array of \"name/ref\" strings", schema: z.array(z.string()) },
    handler: (ctx) => availableFrontends(ctx, {}),
  }),
  route({
    method: "PUT",
    path: "/api/v1/$family/preferred_frontend",
    view: PreferredFrontendSchema,
    summary: "Choose the frontend `/` serves to this browser: sets the `preferred_frontend` cookie; `{frontend_name}`; 400 when it is not installed",
    tags,
    operation: choosePreferredFrontend,
    body: choosePreferredFrontend.input,
    async handler(ctx, { body, res }) {
      const chosen = await choosePreferredFrontend(ctx, body);
      setPreferredCookie(ctx, res, chosen.frontend_name);
      return chosen;
    },
  }),
  route({
    method: "GET",
    path: "/$family/frontend",
    summary: "The frontend switcher page (HTML): a form listing the installed frontends",
    produces: "text/html",
    tags,
    operation: availableFrontends,
    async handler(ctx, { req, res }) {
      const choices = await availableFrontends(ctx, {});
      const current = parseCookie(req.get("cookie") ?? "")[PREFERRED_FRONTEND_COOKIE];
      res.type("html").send(switcherPage(choices, current, formCsrfToken(req, res, secure(ctx))));
      return undefined;
    },
  }),
  route({
    method: "POST",
    path: "/$family/frontend",
    summary: "The switcher form: sets the `preferred_frontend` cookie and redirects to `/` (403 without the form's CSRF token, 400 for a frontend not installed)",
    tags,
    auth: "public",
    body: z.object({ frontend: z.string().optional(), [FORM_CSRF_FIELD]: z.string().optional() }),
    async handler(ctx, { req, res, body }) {
      const choices = await availableFrontends(ctx, {});
      const token = formCsrfToken(req, res, secure(ctx));
      if (!formCsrfValid(req, body[FORM_CSRF_FIELD])) {
        res.status(403).type("html").send(switcherPage(choices, undefined, token, "The form expired or came from another site; please choose again."));
        return undefined;
      }
      try {
        const chosen = await choosePreferredFrontend(ctx, { frontend_name: body.frontend ?? "" });
        setPreferredCookie(ctx, res, chosen.frontend_name);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        res.status(400).type("html").send(switcherPage(choices, undefined, token, error.message));
        return undefined;
      }
      res.redirect(303, "/");
      return undefined;
    },
  }),
];
