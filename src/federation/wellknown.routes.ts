// Discovery documents other servers and clients read before anything else: NodeInfo, WebFinger, host-meta.
import type { Request } from "express";
import { z } from "zod";
import { route, type RouteDef } from "../http/routes/route.ts";
import { instanceInfo, instanceUsage } from "../domain/instance/instance.ops.ts";
import { DomainError, NotFound } from "../kernel/errors.ts";
import { buildNodeinfo, nodeinfoContentType, nodeinfoLinks, parseNodeinfoVersion } from "./nodeinfo.ts";
import { SERVICE_ACTOR_PATHS } from "./service-actors.ts";
import { accountJrd, hostMetaJrd, hostMetaXrd, jrdToXrd, parseResource, requireFederating, serviceActorJrd, webfingerAccount, type Jrd } from "./webfinger.ts";
import { HostMetaJrdSchema, JrdSchema, NodeinfoLinksSchema, NodeinfoSchema } from "../views/schemas/tools.ts";

const XRD = "application/xrd+xml";
const JRD = "application/jrd+json";

/** `format=xml|json` wins; otherwise content negotiation, JSON when the client states no preference. */
function wantsXml(req: Request, format: string | undefined) {
  if (format) return /xml|xrd/i.test(format);
  return /xml$/.test(req.accepts([JRD, "application/json", XRD, "application/xml"]) || JRD);
}

export const wellKnownRoutes: RouteDef[] = [
  route({
    method: "GET",
    path: "/.well-known/nodeinfo",
    summary: "NodeInfo discovery: links to the 2.0 and 2.1 documents",
    view: NodeinfoLinksSchema,
    tags: ["Federation"],
    auth: "public",
    async handler(ctx) {
      return nodeinfoLinks(ctx.settings.baseUrl);
    },
  }),
  route({
    method: "GET",
    path: "/nodeinfo/:version",
    summary: "NodeInfo document; version is 2.0 or 2.1, with or without .json",
    view: NodeinfoSchema,
    tags: ["Federation"],
    auth: "public",
    params: z.object({ version: z.string() }),
    async handler(ctx, { params, res }) {
      const version = parseNodeinfoVersion(params.version);
      if (!version) throw NotFound("Nodeinfo schema version not handled");
      const [info, usage] = await Promise.all([instanceInfo(ctx, {}), instanceUsage(ctx, {})]);
      res.type(nodeinfoContentType(version)).json(buildNodeinfo(version, info, usage, ctx.config.group("mailer")));
    },
  }),
  route({
    method: "GET",
    path: "/.well-known/webfinger",
    summary: "WebFinger (RFC 7033) for a local account: JRD, or XRD with Accept: application/xrd+xml or format=xml",
    view: JrdSchema,
    produces: "application/jrd+json",
    tags: ["Federation"],
    auth: "public",
    query: z.object({ resource: z.string().min(1), format: z.string().optional() }),
    async handler(ctx, { query, req, res }) {
      const xml = wantsXml(req, query.format);
      try {
        requireFederating(ctx);
        const jrd = serviceJrd(ctx.settings, query.resource) ?? accountJrd(await webfingerAccount(ctx, { resource: query.resource }), ctx.settings.domain, ctx.settings.baseUrl);
        if (xml) res.type(XRD).send(jrdToXrd(jrd));
        else res.type(JRD).send(JSON.stringify(jrd));
      } catch (error) {
        if (!xml || !(error instanceof DomainError) || error.kind !== "not_found") throw error;
        res.status(404).type("text/plain").send(error.message);
      }
    },
  }),
  route({
    method: "GET",
    path: "/.well-known/host-meta",
    summary: "host-meta (RFC 6415): the WebFinger template",
    produces: "application/xrd+xml",
    tags: ["Federation"],
    auth: "public",
    async handler(ctx, { res }) {
      requireFederating(ctx);
      res.type(XRD).send(hostMetaXrd(ctx.settings.baseUrl));
    },
  }),
  route({
    method: "GET",
    path: "/.well-known/host-meta.json",
    summary: "host-meta as JSON (RFC 6415 JRD): the WebFinger template",
    view: HostMetaJrdSchema,
    produces: "application/jrd+json",
    tags: ["Federation"],
    auth: "public",
    async handler(ctx, { res }) {
      requireFederating(ctx);
      res.type(JRD).send(JSON.stringify(hostMetaJrd(ctx.settings.baseUrl)));
    },
  }),
];

/** The instance actor and the relay actor answer WebFinger too (peers check a key owner's handle). */
function serviceJrd(settings: { domain: string; baseUrl: string }, resource: string): Jrd | null {
  const target = parseResource(resource, settings.domain);
  if (!target) return null;
  const actors = Object.fromEntries(Object.entries(SERVICE_ACTOR_PATHS).map(([nickname, path]) => [nickname, settings.baseUrl + path]));
  return serviceActorJrd(target, actors, settings.domain);
}
