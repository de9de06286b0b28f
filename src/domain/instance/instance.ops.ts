// What the instance says about itself: GET /api/v1/instance, /api/v1/instance/peers and nodeinfo.
// Every limit and switch is read from the runtime settings (`ctx.config`, group "instance").
import { SOFTWARE_VERSION } from "../../config/version.ts";
import { z } from "zod";
import type { Settings } from "../../config/env.ts";
import type { RuntimeConfig, RuntimeSettings } from "../../config/runtime.ts";
import type { Ctx } from "../context.ts";
import { operation } from "../operation.ts";
import { probeHealth } from "./health.ts";
import { policyTransparency } from "../federation/policy/transparency.ts";
import { rows } from "../../db/sql.ts";
import { Prisma } from "../../generated/prisma/client.ts";

export { SOFTWARE_VERSION };
/** The reference client API level we follow. */
export const API_LEVEL = "2.7.2";

const DAY_MS = 24 * 60 * 60 * 1000;

export type InstanceSettings = RuntimeSettings["instance"];

/** The "instance" group of the runtime settings. */
export function instanceSettings(config: RuntimeConfig): InstanceSettings {
  return config.group("instance");
}

/**
 * The `features` list of the instance and nodeinfo metadata: capability words clients test for.
 * Only what this server serves (both variants) is listed; family words use our namespace
 * (`<ns>_api`, `<ns>:api/v1/notifications:include_types_filter`, …).
 * `quote_posting` tells the family's web client to offer quoting (`quote_id` on posting).
 * Left out on purpose: `v2_suggestions`, `custom_emoji_reactions` (reactions are
 * unicode emoji only), `relay`, `safe_dm_mentions`, `exposable_reactions`,
 * `profile_directory`, `shout`, `gopher`, machine translation, bites — none of them is planned or
 * has a runtime switch yet; add a word here when its feature (and switch) lands. `media_proxy` is listed
 * while the media proxy is on.
 */
export function instanceFeatures(settings: Pick<Settings, "namespace" | "family">, cfg: Pick<InstanceSettings, "local_bubble">, opts: { mediaProxy?: boolean } = {}): string[] {
  const ns = settings.namespace;
  const words = [
    `${ns}_api`,
    `${settings.family}_api`,
    "mastodon_api",
    "mastodon_api_streaming",
    "polls",
    `${ns}_explicit_addressing`,
    "shareable_emoji_packs",
    "multifetch",
    `${ns}:api/v1/notifications:include_types_filter`,
    "editing",
    `${ns}_emoji_reactions`,
    `${ns}_chat_messages`,
    "quote_posting",
    ...(cfg.local_bubble.length > 0 ? ["bubble_timeline"] : []),
    ...(opts.mediaProxy ? ["media_proxy"] : []),
  ];
  // the namespace and family words may be the same (API_NAMESPACE=API_FAMILY=pleroma): each word once
  return [...new Set(words)];
}

/** The `federation` object of the instance metadata: the content policies in force (when published) and the quarantine (none yet). */
export function federationInfo(cfg: Pick<InstanceSettings, "federating">, config: RuntimeConfig) {
  return {
    enabled: cfg.federating,
    ...policyTransparency(config),
    quarantined_instances: [] as string[],
    quarantined_instances_info: { quarantined_instances: {} as Record<string, { reason: string }> },
  };
}

/** Active local users: not deactivated, not internal actors. */
const LOCAL_USERS = Prisma.sql`local AND NOT deactivated AND actor_type <> 'Application'`;

/**
 * The instance's counts in one statement (every client asks for /api/v1/instance at start; its counts
 * were six Prisma statements): local users, posts made here (reblogs excluded, from the counters a trigger
 * keeps: see admin stats), the remote servers known, and local users active in the last 30 and 180 days.
 */
function instanceCounts(ctx: Ctx): Promise<InstanceCounts> {
  // the instance and usage operations both need them, often for the same request (nodeinfo, /api/v1/instance)
  let counts = countsOfRequest.get(ctx);
  if (!counts) countsOfRequest.set(ctx, (counts = readInstanceCounts(ctx)));
  return counts;
}

interface InstanceCounts {
  users: number;
  statuses: number;
  domains: number;
  activeMonth: number;
  activeHalfyear: number;
}
const countsOfRequest = new WeakMap<Ctx, Promise<InstanceCounts>>();

async function readInstanceCounts(ctx: Ctx): Promise<InstanceCounts> {
  const now = ctx.clock().getTime();
  const since = (days: number) => new Date(now - days * DAY_MS);
  const [row] = await rows<InstanceCounts>(
    ctx.db,
    Prisma.sql`SELECT
      (SELECT count(*)::int FROM accounts WHERE ${LOCAL_USERS}) AS users,
      (SELECT coalesce(sum(count), 0)::float8 FROM status_counters WHERE instance = '') AS statuses,
      (SELECT count(DISTINCT domain)::int FROM accounts WHERE domain IS NOT NULL AND domain <> '') AS domains,
      (SELECT count(*)::int FROM accounts WHERE ${LOCAL_USERS} AND last_active_at >= ${since(30)}) AS "activeMonth",
      (SELECT count(*)::int FROM accounts WHERE ${LOCAL_USERS} AND last_active_at >= ${since(180)}) AS "activeHalfyear"`,
  );
  return row!;
}

async function remoteDomains(ctx: Ctx): Promise<string[]> {
  const rows = await ctx.db.account.groupBy({ by: ["domain"], where: { domain: { not: null } }, orderBy: { domain: "asc" } });
  return rows.map((r) => r.domain).filter((d): d is string => !!d);
}

export const instanceInfo = operation({
  name: "instance.info",
  access: "public",
  input: z.object({}),
  async run(ctx) {
    const cfg = instanceSettings(ctx.config);
    const counts = await instanceCounts(ctx);
    const s = ctx.settings;
    return {
      domain: s.domain,
      baseUrl: s.baseUrl,
      title: cfg.name,
      email: cfg.email,
      registrationsOpen: cfg.registrations_open,
      userCount: counts.users,
      statusCount: counts.statuses,
      domainCount: counts.domains,
      softwareVersion: SOFTWARE_VERSION,
      features: instanceFeatures(s, cfg, { mediaProxy: ctx.config.get("media_proxy", "enabled") }),
      federation: federationInfo(cfg, ctx.config),
      config: cfg,
    };
  },
});

/** Distinct hosts of the remote accounts this instance knows. */
export const instancePeers = operation({
  name: "instance.peers",
  access: "public",
  input: z.object({}),
  async run(ctx) {
    return remoteDomains(ctx);
  },
});

/** Usage figures and staff for nodeinfo (and the monthly-active count of the instance). */
export const instanceUsage = operation({
  name: "instance.usage",
  input: z.object({}),
  async run(ctx) {
    const [{ activeMonth, activeHalfyear }, staff] = await Promise.all([
      instanceCounts(ctx),
      ctx.db.account.findMany({
        where: { local: true, deactivated: false, OR: [{ isAdmin: true }, { isModerator: true }] },
        select: { apId: true },
        orderBy: { id: "asc" },
      }),
    ]);
    return { activeMonth, activeHalfyear, staffAccounts: staff.map((a) => a.apId) };
  },
});

/**
 * Liveness for load balancers and monitors: the database answers, Redis too when the instance has one, and
 * the job queue can be read; within 2 s whatever is down (health.ts), and naming what is.
 */
export const healthcheck = operation({
  name: "instance.healthcheck",
  access: "public",
  input: z.object({}),
  async run(ctx) {
    const health = await probeHealth(ctx);
    const healthy = health.database === "ok" && health.redis !== "unreachable";
    return { healthy, ...health, pool: ctx.database.poolStats(), memoryUsedMb: Math.round((process.memoryUsage().rss / 1024 / 1024) * 100) / 100 };
  },
});
