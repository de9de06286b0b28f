// What the instance says about itself: GET /api/v1/instance, /api/v1/instance/peers and nodeinfo.
// Every limit and switch is read from the runtime settings (`ctx.config`, group "instance").
import { SOFTWARE_VERSION } from "../../config/version.ts";
import { z } from "zod";
import type { Settings } from "../../config/env.ts";
import type { RuntimeConfig, RuntimeSettings } from "../../config/runtime.ts";
import type { Ctx } from "../context.ts";
import { operation } from "../operation.ts";
import { policyTransparency } from "../federation/policy/transparency.ts";

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
const localUsers = { local: true, deactivated: false, actorType: { not: "Application" } } as const;

/** Posts made on this instance (reblogs excluded), from the counters a trigger keeps (see admin stats). */
async function localStatusCount(ctx: Ctx): Promise<number> {
  const total = await ctx.db.statusCounter.aggregate({ where: { instance: "" }, _sum: { count: true } });
  return Number(total._sum.count ?? 0);
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
    const [userCount, statusCount, domains] = await Promise.all([ctx.db.account.count({ where: localUsers }), localStatusCount(ctx), remoteDomains(ctx)]);
    const s = ctx.settings;
    return {
      domain: s.domain,
      baseUrl: s.baseUrl,
      title: cfg.name,
      email: cfg.email,
      registrationsOpen: cfg.registrations_open,
      userCount,
      statusCount,
      domainCount: domains.length,
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
    const now = ctx.clock().getTime();
    const activeSince = (days: number) => ctx.db.account.count({ where: { ...localUsers, lastActiveAt: { gte: new Date(now - days * DAY_MS) } } });
    const [activeMonth, activeHalfyear, staff] = await Promise.all([
      activeSince(30),
      activeSince(180),
      ctx.db.account.findMany({
        where: { local: true, deactivated: false, OR: [{ isAdmin: true }, { isModerator: true }] },
        select: { apId: true },
        orderBy: { id: "asc" },
      }),
    ]);
    return { activeMonth, activeHalfyear, staffAccounts: staff.map((a) => a.apId) };
  },
});

/** Liveness for load balancers and monitors: the database answers and the job queue can be read. */
export const healthcheck = operation({
  name: "instance.healthcheck",
  access: "public",
  input: z.object({}),
  async run(ctx) {
    let healthy = true;
    let jobQueueStats: Record<string, number> = {};
    try {
      await ctx.db.$queryRawUnsafe("SELECT 1");
      jobQueueStats = await ctx.jobs.stats();
    } catch {
      healthy = false;
    }
    return { healthy, pool: ctx.database.poolStats(), memoryUsedMb: Math.round((process.memoryUsage().rss / 1024 / 1024) * 100) / 100, jobQueueStats };
  },
});
