// The same URLs for browsers and servers: `/users/:nickname`, `/@:nickname`, `/notice/:id`, `/objects/:id`.
// The federation middleware hands requests asking for ActivityStreams JSON to Fedify first (actor and
// object ids); what reaches these routes is a browser (HTML), or a server asking for JSON at one of the
// family's other addresses (`/@nick`, `/notice/:id`), which is redirected to the ActivityPub id as the
// family does. Only what an anonymous reader may see is shown (public and unlisted).
import type { Request, Response } from "express";
import { z } from "zod";
import { route, type RouteDef } from "../../../compat-rest/route.ts";
import { renderAccount } from "../../../compat-rest/views/account.ts";
import { renderStatuses } from "../../../compat-rest/views/status.ts";
import { showAccount } from "../../domain/accounts/accounts.read.ts";
import type { Ctx } from "../../domain/context.ts";
import { NotFound } from "../../domain/errors.ts";
import { showStatus } from "../../domain/statuses/statuses.read.ts";
import { accountStatuses } from "../../domain/timelines/timelines.ops.ts";
import { wantsActivityJson } from "../mount.ts";
import { accountPage, statusPage, type PageStatus } from "./html.ts";

const nickname = z.object({ nickname: z.string() });
const id = z.object({ id: z.string() });

function sendHtml(res: Response, html: string) {
  res.status(200).type("text/html; charset=utf-8").set({ Vary: "Accept", "Content-Security-Policy": "default-src 'none'; img-src *; style-src 'unsafe-inline'" }).send(html);
}

/** A local, active account by nickname (no remote resolution from a page). */
async function localAccount(ctx: Ctx, nick: string) {
  if (nick.includes("@")) throw NotFound("Can't find user");
  const account = await showAccount(ctx, { id: nick });
  if (!account.local || account.deactivated) throw NotFound("Can't find user");
  return account;
}

async function accountPageRoute(ctx: Ctx, req: Request, res: Response, nick: string) {
  const account = await localAccount(ctx, nick);
  if (wantsActivityJson(req)) return void res.redirect(302, account.apId);
  const page = await accountStatuses(ctx, { id: account.id, limit: 20, exclude_replies: true });
  const [rendered, statuses] = await Promise.all([renderAccount(ctx, account), renderStatuses(ctx, page.items)]);
  sendHtml(res, accountPage(rendered, account.apId, `${ctx.settings.baseUrl}/@${account.nickname}`, (statuses as PageStatus[]).filter((s) => !(s as { reblog?: unknown }).reblog)));
}

export const pageRoutes: RouteDef[] = [
  route({
    method: "GET",
    path: ["/users/:nickname", "/@:nickname"],
    summary: "An account's public page (HTML); ActivityStreams clients asking at /@nickname are redirected to the actor",
    tags: ["Federation"],
    auth: "public",
    params: nickname,
    async handler(ctx, { params, req, res }) {
      await accountPageRoute(ctx, req, res, params.nickname);
    },
  }),
  route({
    method: "GET",
    path: "/notice/:id",
    summary: "A status's public page (HTML); ActivityStreams clients are redirected to its ActivityPub id",
    tags: ["Federation"],
    auth: "public",
    params: id,
    async handler(ctx, { params, req, res }) {
      const status = await showStatus(ctx, { id: params.id });
      if (wantsActivityJson(req)) return void res.redirect(302, status.uri);
      if (!status.local) return void res.redirect(302, status.url ?? status.uri);
      if (status.reblogOfId) return void res.redirect(302, `${ctx.settings.baseUrl}/notice/${status.reblogOfId}`);
      const [rendered] = (await renderStatuses(ctx, [status])) as PageStatus[];
      sendHtml(res, statusPage(rendered!, `${ctx.settings.baseUrl}/@${rendered!.account.acct}`));
    },
  }),
  route({
    method: "GET",
    path: "/objects/:id",
    summary: "A local status's ActivityPub id opened in a browser: redirected to its page",
    tags: ["Federation"],
    auth: "public",
    params: id,
    async handler(ctx, { params, res }) {
      // ActivityStreams requests were answered by Fedify; one reaching here is not visible to the asker
      const status = await showStatus(ctx, { id: params.id });
      res.redirect(302, `${ctx.settings.baseUrl}/notice/${status.id}`);
    },
  }),
];
