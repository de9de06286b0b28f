// The same URLs for browsers and servers: `/users/:nickname`, `/@:nickname`, `/notice/:id`,
// `/users/:nickname/statuses/:id`, `/@:nickname/:id`, `/objects/:id`; the landing page `/`; the feeds
// `/users/:nickname/feed` and `/tags/:tag` in Atom and RSS; the framable `/embed/:id` and
// `/notice/:id/embed_player`. The federation middleware hands requests
// asking for ActivityStreams JSON to Fedify first (actor and object ids); what reaches these routes is a
// browser (HTML), a feed reader, or a server asking for JSON at one of the family's other addresses
// (`/@nick`, `/notice/:id`), which is redirected to the ActivityPub id as the family does. Pages are
// rendered for an anonymous reader whoever asks (a browser's session cookie does not widen them): public
// and unlisted statuses only; feeds of public ones (an account's feed also unlisted, as the family's).
import type { Request, Response } from "express";
import { z } from "zod";
import { route, type RouteDef } from "../../http/routes/route.ts";
import { renderAccount } from "../../views/account.ts";
import { renderStatuses } from "../../views/status.ts";
import { showAccount } from "../../domain/accounts/accounts.read.ts";
import { anonymous, makeCtx, type Ctx } from "../../domain/context.ts";
import { NotFound } from "../../kernel/errors.ts";
import { instanceInfo } from "../../domain/instance/instance.ops.ts";
import { readRules } from "../../domain/rules/rules.ops.ts";
import { showStatus } from "../../domain/statuses/statuses.read.ts";
import { accountStatuses, tagTimeline } from "../../domain/timelines/timelines.ops.ts";
import type { Status } from "../../generated/prisma/client.ts";
import { wantsActivityJson } from "../mount.ts";
import { FEED_TYPES, renderFeed, type FeedFormat } from "./feeds.ts";
import { accountPage, landingPage, plainContent, playable, playerPage, statusPage, type PageStatus } from "./html.ts";

const nickname = z.object({ nickname: z.string() });
const id = z.object({ id: z.string() });
const PAGE_SIZE = 20;

const reader = (ctx: Ctx) => makeCtx(ctx, anonymous);

function sendHtml(res: Response, html: string) {
  res.status(200).type("text/html; charset=utf-8").set({ Vary: "Accept", "Content-Security-Policy": "default-src 'none'; img-src *; style-src 'unsafe-inline'" }).send(html);
}

function sendFeed(res: Response, format: FeedFormat, xml: string) {
  res.status(200).type(`${FEED_TYPES[format]}; charset=utf-8`).set({ Vary: "Accept", "X-Content-Type-Options": "nosniff" }).send(xml);
}

/** A local, active account by nickname (no remote resolution from a page). */
async function localAccount(ctx: Ctx, nick: string) {
  if (nick.includes("@")) throw NotFound("Can't find user");
  const account = await showAccount(ctx, { id: nick });
  if (!account.local || account.deactivated) throw NotFound("Can't find user");
  return account;
}

/** A private instance (`instance.public: false`) shows anonymous readers no pages or feeds, as the family. */
function requirePublicInstance(ctx: Ctx) {
  if (!ctx.config.get("instance", "public")) throw NotFound("Not found");
}

const profileUrl = (ctx: Ctx, nick: string) => `${ctx.settings.baseUrl}/@${nick}`;

/** `feed.atom`, `feed.rss`, or the Accept header's choice (Atom unless RSS is preferred), as the family picks. */
function feedFormat(req: Request, suffix: string | undefined): FeedFormat {
  if (suffix === "atom" || suffix === "rss") return suffix;
  return req.accepts(["application/atom+xml", "application/rss+xml"]) === "application/rss+xml" ? "rss" : "atom";
}

async function accountPageRoute(ctx: Ctx, req: Request, res: Response, nick: string) {
  const account = await localAccount(ctx, nick);
  if (wantsActivityJson(req)) return void res.redirect(302, account.apId);
  requirePublicInstance(ctx);
  // a feed reader given the profile's address is sent to the feed (the family's feed_redirect)
  const wanted = req.accepts(["text/html", FEED_TYPES.atom, FEED_TYPES.rss]);
  if (wanted === FEED_TYPES.atom || wanted === FEED_TYPES.rss) return void res.redirect(302, `${ctx.settings.baseUrl}/users/${account.nickname}/feed.${wanted === FEED_TYPES.rss ? "rss" : "atom"}`);
  const page = await accountStatuses(ctx, { id: account.id, limit: PAGE_SIZE, exclude_replies: true, exclude_reblogs: true });
  const [rendered, statuses] = await Promise.all([renderAccount(ctx, account), pageStatuses(ctx, page.items)]);
  const profile = profileUrl(ctx, account.nickname);
  const shown = account.noRichText ? { ...rendered, note: plainContent(rendered.note) } : rendered;
  sendHtml(
    res,
    accountPage(shown, account.apId, profile, statuses, {
      noindex: !account.discoverable,
      feed: `${ctx.settings.baseUrl}/users/${account.nickname}/feed.atom`,
      hideFollowersCount: account.hideFollowersCount,
      hideFollowsCount: account.hideFollowsCount,
    }),
  );
}

/** A local status's page; reblogs go to their original, remote statuses to their own server. */
async function statusPageRoute(ctx: Ctx, req: Request, res: Response, status: Status) {
  if (wantsActivityJson(req)) return void res.redirect(302, status.uri);
  requirePublicInstance(ctx);
  if (!status.local) return void res.redirect(302, status.url ?? status.uri);
  if (status.reblogOfId) return void res.redirect(302, `${ctx.settings.baseUrl}/notice/${status.reblogOfId}`);
  const [rendered] = await pageStatuses(ctx, [status]);
  sendHtml(res, statusPage(rendered!, profileUrl(ctx, rendered!.account.acct), ctx.settings.baseUrl));
}

/** The status `id` if `nick` wrote it (the family's addresses that name the author). */
async function authoredStatus(ctx: Ctx, nick: string, statusId: string) {
  const account = await localAccount(ctx, nick);
  const status = await showStatus(ctx, { id: statusId });
  if (status.accountId !== account.id) throw NotFound("Record not found");
  return status;
}

/** Statuses rendered for a page: the content of authors who chose `no_rich_text` as plain text (one query for the authors). */
async function pageStatuses(ctx: Ctx, statuses: Status[]): Promise<PageStatus[]> {
  const authorIds = [...new Set(statuses.map((s) => s.accountId))];
  const [rendered, plain] = await Promise.all([
    renderStatuses(ctx, statuses) as Promise<PageStatus[]>,
    authorIds.length ? ctx.db.account.findMany({ where: { id: { in: authorIds }, noRichText: true }, select: { id: true } }) : Promise.resolve([]),
  ]);
  const plainAuthors = new Set(plain.map((a) => a.id));
  return rendered.map((s, i) => (plainAuthors.has(statuses[i]!.accountId) ? { ...s, content: plainContent(s.content) } : s));
}

const nextPage = (items: { id: string }[], url: string) => (items.length === PAGE_SIZE ? `${url}?max_id=${items[items.length - 1]!.id}` : undefined);

export const pageRoutes: RouteDef[] = [
  route({
    method: "GET",
    path: "/",
    summary: "The landing page (HTML): the instance's name, description, rules, figures, how to join, and the staff's sign-in",
    produces: "text/html",
    tags: ["Pages"],
    auth: "public",
    async handler(ctx, { res }) {
      const anon = reader(ctx);
      const [info, rules] = await Promise.all([instanceInfo(anon, {}), readRules(anon)]);
      const base = ctx.settings.baseUrl;
      const thumbnail = info.config.instance_thumbnail;
      sendHtml(
        res,
        landingPage(
          {
            title: info.title,
            description: info.config.description,
            thumbnail: /^[a-z][a-z0-9+.-]*:/i.test(thumbnail) ? thumbnail : `${base}${thumbnail.startsWith("/") ? "" : "/"}${thumbnail}`,
            registrationsOpen: info.registrationsOpen,
            invitesEnabled: info.config.invites_enabled,
            domain: info.domain,
            userCount: info.userCount,
            statusCount: info.statusCount,
            domainCount: info.domainCount,
            rules,
          },
          base,
        ),
      );
    },
  }),
  route({
    method: "GET",
    path: ["/users/:nickname", "/@:nickname"],
    summary: "An account's public page (HTML); ActivityStreams clients asking at /@nickname are redirected to the actor",
    produces: "text/html",
    tags: ["Pages"],
    auth: "public",
    params: nickname,
    async handler(ctx, { params, req, res }) {
      await accountPageRoute(reader(ctx), req, res, params.nickname);
    },
  }),
  route({
    method: "GET",
    path: "/notice/:id",
    summary: "A status's public page (HTML); ActivityStreams clients are redirected to its ActivityPub id",
    produces: "text/html",
    tags: ["Pages"],
    auth: "public",
    params: id,
    async handler(ctx, { params, req, res }) {
      const anon = reader(ctx);
      await statusPageRoute(anon, req, res, await showStatus(anon, { id: params.id }));
    },
  }),
  route({
    method: "GET",
    path: ["/users/:nickname/statuses/:id", "/@:nickname/:id", "/@:nickname/posts/:id"],
    summary: "A status's public page at the addresses naming its author (HTML); ActivityStreams clients are redirected to its ActivityPub id",
    produces: "text/html",
    tags: ["Pages"],
    auth: "public",
    params: z.object({ nickname: z.string(), id: z.string() }),
    async handler(ctx, { params, req, res }) {
      const anon = reader(ctx);
      await statusPageRoute(anon, req, res, await authoredStatus(anon, params.nickname, params.id));
    },
  }),
  route({
    method: "GET",
    path: "/notice/:id/embed_player",
    summary: "The video or audio of a public local status alone (HTML), for embedding in other sites' frames",
    produces: "text/html",
    tags: ["Pages"],
    auth: "public",
    params: id,
    async handler(ctx, { params, res }) {
      const anon = reader(ctx);
      requirePublicInstance(anon);
      const status = await showStatus(anon, { id: params.id });
      const [rendered] = status.local && !status.reblogOfId ? ((await renderStatuses(anon, [status])) as PageStatus[]) : [];
      const media = rendered && playable(rendered);
      if (!media) throw NotFound("Not found");
      // meant to be framed by other sites (the family allows it likewise); it plays media and nothing else
      res.removeHeader("X-Frame-Options");
      res
        .status(200)
        .type("text/html; charset=utf-8")
        .set({ "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; media-src *; frame-ancestors *" })
        .send(playerPage(media));
    },
  }),
  route({
    method: "GET",
    path: "/embed/:id",
    summary: "A public local status rendered for other sites' frames (HTML; the later family's embeds)",
    produces: "text/html",
    tags: ["Pages"],
    auth: "public",
    params: id,
    async handler(ctx, { params, res }) {
      const anon = reader(ctx);
      requirePublicInstance(anon);
      const status = await showStatus(anon, { id: params.id });
      // only public statuses are embedded, as the family's embed controller checks
      if (!status.local || status.reblogOfId || status.visibility !== "public") throw NotFound("Not found");
      const [rendered] = await pageStatuses(anon, [status]);
      res.removeHeader("X-Frame-Options");
      res
        .status(200)
        .type("text/html; charset=utf-8")
        .set({ "Content-Security-Policy": "default-src 'none'; img-src *; media-src *; style-src 'unsafe-inline'; frame-ancestors *" })
        .send(statusPage(rendered!, profileUrl(anon, rendered!.account.acct), ctx.settings.baseUrl));
    },
  }),
  route({
    method: "GET",
    path: "/objects/:id",
    summary: "A local status's ActivityPub id opened in a browser: redirected to its page",
    tags: ["Pages"],
    auth: "public",
    params: id,
    async handler(ctx, { params, res }) {
      // ActivityStreams requests were answered by Fedify; one reaching here is not visible to the asker
      const status = await showStatus(reader(ctx), { id: params.id });
      res.redirect(302, `${ctx.settings.baseUrl}/notice/${status.id}`);
    },
  }),
  route({
    method: "GET",
    path: ["/users/:nickname/feed", "/users/:nickname/feed.:format"],
    summary: "An account's public and unlisted posts (not reblogs) as an Atom (`feed.atom`, the default) or RSS (`feed.rss`) feed; `max_id` pages back",
    produces: "application/atom+xml",
    tags: ["Pages"],
    auth: "public",
    params: z.object({ nickname: z.string(), format: z.enum(["atom", "rss"]).optional() }),
    query: z.object({ max_id: z.string().optional() }),
    async handler(ctx, { params, query, req, res }) {
      const anon = reader(ctx);
      requirePublicInstance(anon);
      const account = await localAccount(anon, params.nickname);
      const format = feedFormat(req, params.format);
      const page = await accountStatuses(anon, { id: account.id, limit: PAGE_SIZE, max_id: query.max_id, exclude_reblogs: true });
      const [rendered, statuses] = await Promise.all([renderAccount(anon, account), pageStatuses(anon, page.items)]);
      const self = `${ctx.settings.baseUrl}/users/${account.nickname}/feed.${format}`;
      const name = rendered.display_name || account.nickname;
      const meta = { self, title: `${name}'s timeline`, subtitle: `Public posts of @${rendered.fqn}`, link: profileUrl(ctx, account.nickname), author: { name, uri: account.apId, avatar: rendered.avatar }, next: nextPage(page.items, self) };
      sendFeed(res, format, renderFeed(format, meta, statuses));
    },
  }),
  route({
    method: "GET",
    path: "/tags/:tag",
    summary: "Public posts with a hashtag, local and known remote, as an RSS (`/tags/name.rss`, the default) or Atom (`/tags/name.atom`) feed; `max_id` pages back",
    produces: "application/rss+xml",
    tags: ["Pages"],
    auth: "public",
    params: z.object({ tag: z.string().min(1) }),
    query: z.object({ max_id: z.string().optional() }),
    async handler(ctx, { params, query, res }) {
      const anon = reader(ctx);
      requirePublicInstance(anon);
      // the family reads the format from the tag's last dot-suffix; RSS without one
      const match = /^(.+)\.(rss|atom)$/.exec(params.tag);
      const [tag, format] = match ? [match[1]!, match[2] as FeedFormat] : [params.tag, "rss" as const];
      const page = await tagTimeline(anon, { hashtag: tag, limit: PAGE_SIZE, max_id: query.max_id });
      const statuses = await pageStatuses(anon, page.items);
      const self = `${ctx.settings.baseUrl}/tags/${encodeURIComponent(tag)}.${format}`;
      const meta = { self, title: `#${tag}`, subtitle: `Public posts tagged #${tag}`, link: `${ctx.settings.baseUrl}/`, next: nextPage(page.items, self) };
      sendFeed(res, format, renderFeed(format, meta, statuses));
    },
  }),
];
