// The family's remote-follow pages (Pleroma's RemoteFollowController and UtilController), as HTML forms:
//  - GET /ostatus_subscribe?acct= — the page WebFinger advertises as our `http://ostatus.org/schema/1.0/subscribe`
//    template: a status goes to its page, an account is shown with a sign-in-and-follow form;
//    POST /ostatus_subscribe signs in (password, and the second factor when the account has one) and
//    follows with the same operation as POST /api/v1/accounts/:id/follow, then goes to the account's page;
//  - GET/POST /main/ostatus — a visitor gives their own handle to follow a local account (or interact with
//    a status) from their server: redirected to that server's subscribe template;
//  - GET /authorize_interaction?uri= — the reference API's name for the page: redirected to /ostatus_subscribe.
// The follow form carries the credentials themselves (no ambient session is used), and posts whose Origin
// names another site are refused.
import type { Request, Response } from "express";
import { z } from "zod";
import type { Account } from "../../src/generated/prisma/client.ts";
import { requireSecondFactor } from "../../src/domain/auth/second-factor.ts";
import { signInWithPassword } from "../../src/domain/auth/sign-in.ts";
import { makeCtx, type Ctx } from "../../src/domain/context.ts";
import { DomainError } from "../../src/kernel/errors.ts";
import { getAccount } from "../../src/domain/accounts/lookup.ts";
import { remoteInteraction, resolveInteractionTarget, subscribeTarget } from "../../src/domain/federation/remote-interaction.ops.ts";
import type { Resolved } from "../../src/domain/federation/port.ts";
import { followAccount } from "../../src/domain/relationships/follows.ops.ts";
import { crossSiteForm } from "../../src/http/csrf.ts";
import { avatarUrl } from "../../src/domain/media/defaults.ts";
import { route } from "../../src/http/routes/route.ts";
import { followLoginPage, remoteFollowErrorPage, subscribePage, type Followee } from "./remote-follow.pages.ts";

const tags = ["Remote follow"];
const instanceName = (ctx: Ctx) => ctx.config.get("instance", "name");

function sendPage(res: Response, status: number, html: string) {
  res.status(status).set({ "Cache-Control": "no-store" }).type("html").send(html);
}

const followee = (ctx: Ctx, a: Account): Followee => ({ id: a.id, acct: a.nickname, displayName: a.displayName ?? "", avatar: avatarUrl(ctx, a) });

/** Where a followed account is shown: a local one's page here, a remote one's profile on its server. */
const profileUrl = (ctx: Ctx, a: Account) => (a.local ? `${ctx.settings.baseUrl}/users/${encodeURIComponent(a.nickname)}` : (a.url ?? a.apId ?? `${ctx.settings.baseUrl}/`));

/** What the handle form shows of what is to be followed (an account) or interacted with (a status). */
const subscribeForm = (ctx: Ctx, target: Resolved) =>
  "status" in target ? { nickname: "", statusId: target.status.id } : { nickname: target.account.nickname, avatar: avatarUrl(ctx, target.account) };

/** Refuses a form post from another site's page (403); true when refused. */
function refusedCrossSite(req: Request, res: Response): boolean {
  if (!crossSiteForm(req.get("origin"), req.get("host"))) return false;
  sendPage(res, 403, remoteFollowErrorPage("Cross-site request refused."));
  return true;
}

const followBody = z.object({
  authorization: z.object({ id: z.string(), name: z.string(), password: z.string(), code: z.string().optional() }),
});

const subscribeBody = z.object({
  user: z.object({ nickname: z.string(), profile: z.string() }).optional(),
  status: z.object({ status_id: z.string(), profile: z.string() }).optional(),
});

export const remoteFollowRoutes = [
  route({
    method: "GET",
    path: "/ostatus_subscribe",
    summary: "The remote-follow page: an account (handle or URL) with a sign-in-and-follow form; a status URL redirects to its page",
    produces: "text/html",
    tags,
    auth: "public",
    query: z.object({ acct: z.string() }),
    response: { description: "HTML; 302 to /notice/:id for a status; 404 page when nothing is found" },
    async handler(ctx, { query, res }) {
      try {
        const found = await resolveInteractionTarget(ctx, query);
        if ("status" in found) return res.redirect(302, `/notice/${found.status.id}`);
        sendPage(res, 200, followLoginPage(instanceName(ctx), followee(ctx, found.account)));
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        sendPage(res, error.kind === "not_found" ? 404 : 400, remoteFollowErrorPage(error.message));
      }
    },
  }),
  route({
    method: "POST",
    path: "/ostatus_subscribe",
    summary: "Sign in (authorization[name], [password], [code] when MFA is on) and follow authorization[id]; redirects to the account's page",
    produces: "text/html",
    tags,
    auth: "public",
    rateLimit: "authentication",
    body: followBody,
    response: { description: "302 to the followed account's page; the form again with 401 (wrong credentials or code), 403 (cannot sign in), 404 page for an unknown account" },
    async handler(ctx, { body, req, res }) {
      if (refusedCrossSite(req, res)) return;
      const form = body.authorization;
      const target = await getAccount(ctx, form.id).catch(() => null);
      if (!target) return sendPage(res, 404, remoteFollowErrorPage("Could not find user"));
      const again = (status: number, error: string, askCode = false) => sendPage(res, status, followLoginPage(instanceName(ctx), followee(ctx, target), { error, askCode }));
      let account: Account;
      try {
        account = await signInWithPassword(ctx, form.name, form.password);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        return again(error.kind === "unauthorized" ? 401 : 403, error.kind === "unauthorized" ? "Wrong username or password" : error.message);
      }
      try {
        await requireSecondFactor(ctx, account, form.code?.trim() || undefined);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        return again(401, form.code ? "Invalid code" : "Enter your two-factor code", true);
      }
      try {
        await followAccount(makeCtx(ctx, { account, app: null, scopes: ["write:follows"], via: "session" }), { id: target.id });
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        return sendPage(res, error.kind === "not_found" ? 404 : 403, remoteFollowErrorPage(error.message));
      }
      res.redirect(302, profileUrl(ctx, target));
    },
  }),
  route({
    method: "GET",
    path: "/main/ostatus",
    summary: "The form where a visitor gives their own handle to follow a local account (`nickname`) or interact with a status (`status_id`) from their server",
    produces: "text/html",
    tags,
    auth: "public",
    query: z.object({ nickname: z.string().optional(), status_id: z.string().optional() }),
    response: { description: "HTML; 404 page for an unknown local account or status" },
    async handler(ctx, { query, res }) {
      try {
        const target = await subscribeTarget(ctx, query);
        sendPage(res, 200, subscribePage(instanceName(ctx), subscribeForm(ctx, target)));
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        sendPage(res, 404, remoteFollowErrorPage(error.message));
      }
    },
  }),
  route({
    method: "POST",
    path: "/main/ostatus",
    summary: "Redirect the visitor to their own server's subscribe page (WebFinger of user[profile] / status[profile]) for the local account or status",
    tags,
    auth: "public",
    body: subscribeBody,
    response: { description: "302 to the visitor's server; the form again (400) with \"Something went wrong.\" when their server offers no subscribe page" },
    async handler(ctx, { body, req, res }) {
      if (refusedCrossSite(req, res)) return;
      const { user, status } = body;
      if (!user && !status) return sendPage(res, 400, remoteFollowErrorPage("Something went wrong."));
      let target: Resolved;
      try {
        target = await subscribeTarget(ctx, status ? { status_id: status.status_id } : { nickname: user!.nickname });
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        return sendPage(res, 404, remoteFollowErrorPage(error.message));
      }
      const apId = "status" in target ? target.status.uri : target.account.apId;
      try {
        const { url } = await remoteInteraction(ctx, { ap_id: apId ?? "", profile: (status ?? user)!.profile });
        res.redirect(302, url);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        sendPage(res, 400, subscribePage(instanceName(ctx), subscribeForm(ctx, target), "Something went wrong."));
      }
    },
  }),
  route({
    method: "GET",
    path: "/authorize_interaction",
    summary: "The reference API's remote-interaction page: redirects to /ostatus_subscribe?acct=<uri>",
    tags,
    auth: "public",
    query: z.object({ uri: z.string() }),
    response: { description: "302 to /ostatus_subscribe" },
    async handler(_ctx, { query, res }) {
      res.redirect(302, `/ostatus_subscribe?acct=${encodeURIComponent(query.uri)}`);
    },
  }),
];
