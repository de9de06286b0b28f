// What the reference API tells about the instance beyond /api/v1/instance: its contact account, the
// servers it moderates (when its policies are published), its weekly activity, the profile directory
// and the viewer's posting and reading preferences.
import { z } from "zod";
import { Prisma, type Account } from "../../generated/prisma/client.ts";
import { requireAccount } from "../auth/policy.ts";
import type { Ctx } from "../context.ts";
import { NotFound } from "../../kernel/errors.ts";
import { bool, int } from "../inputs.ts";
import { operation } from "../operation.ts";
import { hostRule } from "./rejected-domains.ts";
import { createHash } from "node:crypto";

/** The instance's contact: its oldest active local administrator (the family has no setting for one). */
export async function contactAccount(ctx: Ctx): Promise<Account | null> {
  return ctx.db.account.findFirst({ where: { local: true, isAdmin: true, deactivated: false, actorType: { not: "Application" } }, orderBy: { createdAt: "asc" } });
}

export interface DomainBlockView {
  domain: string;
  /** SHA-256 of the domain, hex (the reference's way of naming a host without spelling it) */
  digest: string;
  severity: "silence" | "suspend";
  comment: string | null;
}

/**
 * The servers the content policy acts on (`mrf_simple`), as the reference lists its domain blocks:
 * `reject` is `suspend`, every other action `silence`; one entry per host, the harshest. Only when the
 * policies are published (`mrf.transparency`; otherwise 404 as the reference does when it hides them),
 * hosts under `mrf.transparency_exclusions` left out.
 */
export const instanceDomainBlocks = operation({
  name: "instance.domainBlocks",
  access: "public",
  input: z.object({}),
  async run(ctx): Promise<DomainBlockView[]> {
    const mrf = ctx.config.group("mrf");
    if (!mrf.transparency) throw NotFound("Record not found");
    const simple = ctx.config.group("mrf_simple");
    const blocks = new Map<string, DomainBlockView>();
    for (const [action, rules] of Object.entries(simple)) {
      if (action === "accept") continue;
      for (const rule of rules) {
        const domain = rule.host.trim().toLowerCase().replace(/^\*\./, "");
        if (!domain || hostRule(mrf.transparency_exclusions, domain)) continue;
        const severity = action === "reject" ? "suspend" : "silence";
        const known = blocks.get(domain);
        if (known && (known.severity === "suspend" || severity === "silence")) continue;
        blocks.set(domain, { domain, digest: createHash("sha256").update(domain).digest("hex"), severity, comment: rule.reason || known?.comment || null });
      }
    }
    return [...blocks.values()].sort((a, b) => a.domain.localeCompare(b.domain));
  },
});

export interface ActivityWeek {
  /** start of the week (Monday 00:00 UTC) */
  week: Date;
  statuses: number;
  logins: number;
  registrations: number;
}

const WEEKS = 12;

/**
 * The last 12 weeks (this one first): local posts, local accounts active that week (the last
 * activity we keep per account, so an account counts in its latest week only) and local sign-ups.
 * One statement.
 */
export const instanceActivity = operation({
  name: "instance.activity",
  access: "public",
  input: z.object({}),
  async run(ctx): Promise<ActivityWeek[]> {
    const now = ctx.clock();
    const at = Prisma.sql`(${now.toISOString()}::timestamptz AT TIME ZONE 'UTC')`;
    const rows = await ctx.db.$queryRaw<{ week: Date | string; statuses: number; logins: number; registrations: number }[]>(Prisma.sql`
      WITH weeks AS (SELECT generate_series(date_trunc('week', ${at}) - interval '${Prisma.raw(String(WEEKS - 1))} weeks', date_trunc('week', ${at}), interval '1 week') AS week)
      SELECT w.week,
        (SELECT count(*)::int FROM statuses s WHERE s.local AND s.reblog_of_id IS NULL AND s.created_at >= w.week AND s.created_at < w.week + interval '1 week') AS statuses,
        (SELECT count(*)::int FROM accounts a WHERE a.local AND a.last_active_at >= w.week AND a.last_active_at < w.week + interval '1 week') AS logins,
        (SELECT count(*)::int FROM accounts a WHERE a.local AND a.actor_type <> 'Application' AND a.created_at >= w.week AND a.created_at < w.week + interval '1 week') AS registrations
      FROM weeks w ORDER BY w.week DESC`);
    return rows.map((r) => ({ week: toUtc(r.week), statuses: r.statuses, logins: r.logins, registrations: r.registrations }));
  },
});

/** A `timestamp without time zone` as the UTC instant it stands for (drivers differ in what they hand back). */
function toUtc(value: Date | string): Date {
  if (typeof value === "string") return new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value.replace(" ", "T")}Z`);
  return value;
}

export const directoryInput = z.object({
  offset: int().optional(),
  limit: int().optional(),
  /** `active`: most recent post first (default); `new`: newest accounts first */
  order: z.enum(["active", "new"]).optional(),
  local: bool().optional(),
});

/**
 * The profile directory: discoverable, active accounts (local, or also remote ones we know), paged
 * by offset (40 a page, at most 80). Without a post they sort last under `active`.
 */
export const listDirectory = operation({
  name: "instance.directory",
  access: { scopes: ["read:accounts"], optional: true },
  input: directoryInput,
  async run(ctx, input): Promise<Account[]> {
    const take = Math.min(Math.max(input.limit ?? 40, 1), 80);
    return ctx.db.account.findMany({
      where: { discoverable: true, deactivated: false, actorType: { notIn: ["Application"] }, ...(input.local ? { local: true } : {}) },
      orderBy: input.order === "new" ? [{ createdAt: "desc" }, { id: "desc" }] : [{ lastStatusAt: { sort: "desc", nulls: "last" } }, { id: "desc" }],
      skip: Math.max(input.offset ?? 0, 0),
      take,
    });
  },
});

export interface Preferences {
  visibility: string;
  sensitive: boolean;
  language: string | null;
}

/** The viewer's posting defaults (the reading ones are the reference's defaults: we keep none). */
export const userPreferences = operation({
  name: "accounts.preferences",
  access: { scopes: ["read:accounts"] },
  input: z.object({}),
  authorize: requireAccount,
  async run(ctx): Promise<Preferences> {
    const me = requireAccount(ctx);
    const account = await ctx.db.account.findUniqueOrThrow({ where: { id: me.id }, select: { defaultScope: true } });
    return { visibility: account.defaultScope, sensitive: false, language: null };
  },
});
