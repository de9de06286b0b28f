// The reference admin API's dashboard: measures (daily counts), dimensions (breakdowns) and retention
// (sign-up cohorts), computed from the stored data with one grouped query per key. "Active" means
// having posted or favourited that day (sign-ins are not recorded per day). Unknown keys are left out,
// as the reference server leaves them out.
import { z } from "zod";
import { Prisma } from "../../generated/prisma/client.ts";
import type { Ctx } from "../context.ts";
import { Invalid } from "../../kernel/errors.ts";
import { array, int } from "../inputs.ts";
import { operation } from "../operation.ts";

const DAY = 86_400_000;

const range = {
  start_at: z.coerce.date(),
  end_at: z.coerce.date(),
};

/** Whole UTC days from the start's day through the end's; at most a year, so the answer stays small. */
function days(start: Date, end: Date): string[] {
  const first = Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate());
  const last = Date.UTC(end.getUTCFullYear(), end.getUTCMonth(), end.getUTCDate());
  if (!(last >= first)) throw Invalid("end_at must not be before start_at", { end_at: "is before start_at" });
  if (last - first > 366 * DAY) throw Invalid("The range is limited to a year", { start_at: "is too far back" });
  const out: string[] = [];
  for (let t = first; t <= last; t += DAY) out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

/** The bounds as timestamps: from the start's midnight to the end of the end's day. */
function bounds(dayList: string[]): [Date, Date] {
  return [new Date(`${dayList[0]}T00:00:00.000Z`), new Date(Date.parse(`${dayList.at(-1)}T00:00:00.000Z`) + DAY)];
}

type DayRow = { day: Date | string; n: number | bigint | string };

const local = Prisma.sql`(SELECT id FROM accounts WHERE local)`;

/** Each measure: a query grouping `n` by `day` between two timestamps (with the tag or domain asked for). */
const MEASURES: Record<string, { unit: string | null; needs?: "tag_id" | "domain"; sql: (from: Date, to: Date, arg: string) => Prisma.Sql }> = {
  new_users: {
    unit: null,
    sql: (f, t) => Prisma.sql`SELECT date_trunc('day', created_at) AS day, count(*)::int AS n FROM accounts WHERE local AND created_at >= ${f} AND created_at < ${t} GROUP BY 1`,
  },
  active_users: {
    unit: null,
    sql: (f, t) => Prisma.sql`SELECT date_trunc('day', created_at) AS day, count(DISTINCT account_id)::int AS n FROM (
      SELECT created_at, account_id FROM statuses WHERE created_at >= ${f} AND created_at < ${t} AND account_id IN ${local}
      UNION ALL SELECT created_at, account_id FROM favourites WHERE created_at >= ${f} AND created_at < ${t} AND account_id IN ${local}) a GROUP BY 1`,
  },
  interactions: {
    unit: null,
    sql: (f, t) => Prisma.sql`SELECT date_trunc('day', created_at) AS day, count(*)::int AS n FROM (
      SELECT f.created_at FROM favourites f JOIN statuses s ON s.id = f.status_id WHERE s.local AND f.created_at >= ${f} AND f.created_at < ${t}
      UNION ALL SELECT r.created_at FROM statuses r JOIN statuses s ON s.id = r.reblog_of_id WHERE s.local AND r.created_at >= ${f} AND r.created_at < ${t}
      UNION ALL SELECT r.created_at FROM statuses r JOIN statuses s ON s.id = r.in_reply_to_id WHERE s.local AND r.created_at >= ${f} AND r.created_at < ${t}) i GROUP BY 1`,
  },
  opened_reports: {
    unit: null,
    sql: (f, t) => Prisma.sql`SELECT date_trunc('day', created_at) AS day, count(*)::int AS n FROM reports WHERE created_at >= ${f} AND created_at < ${t} GROUP BY 1`,
  },
  resolved_reports: {
    unit: null,
    sql: (f, t) => Prisma.sql`SELECT date_trunc('day', updated_at) AS day, count(*)::int AS n FROM reports WHERE state <> 'open' AND updated_at >= ${f} AND updated_at < ${t} GROUP BY 1`,
  },
  tag_uses: {
    unit: null,
    needs: "tag_id",
    sql: (f, t, tag) => Prisma.sql`SELECT date_trunc('day', s.created_at) AS day, count(*)::int AS n FROM status_tags st JOIN statuses s ON s.id = st.status_id WHERE st.tag_id = ${tag} AND s.created_at >= ${f} AND s.created_at < ${t} GROUP BY 1`,
  },
  tag_accounts: {
    unit: null,
    needs: "tag_id",
    sql: (f, t, tag) => Prisma.sql`SELECT date_trunc('day', s.created_at) AS day, count(DISTINCT s.account_id)::int AS n FROM status_tags st JOIN statuses s ON s.id = st.status_id WHERE st.tag_id = ${tag} AND s.created_at >= ${f} AND s.created_at < ${t} GROUP BY 1`,
  },
  tag_servers: {
    unit: null,
    needs: "tag_id",
    sql: (f, t, tag) => Prisma.sql`SELECT date_trunc('day', s.created_at) AS day, count(DISTINCT coalesce(a.domain, ''))::int AS n FROM status_tags st JOIN statuses s ON s.id = st.status_id JOIN accounts a ON a.id = s.account_id WHERE st.tag_id = ${tag} AND s.created_at >= ${f} AND s.created_at < ${t} GROUP BY 1`,
  },
  instance_accounts: {
    unit: null,
    needs: "domain",
    sql: (f, t, d) => Prisma.sql`SELECT date_trunc('day', created_at) AS day, count(*)::int AS n FROM accounts WHERE lower(domain) = ${d} AND created_at >= ${f} AND created_at < ${t} GROUP BY 1`,
  },
  instance_statuses: {
    unit: null,
    needs: "domain",
    sql: (f, t, d) => Prisma.sql`SELECT date_trunc('day', s.created_at) AS day, count(*)::int AS n FROM statuses s JOIN accounts a ON a.id = s.account_id WHERE lower(a.domain) = ${d} AND s.created_at >= ${f} AND s.created_at < ${t} GROUP BY 1`,
  },
  instance_media_attachments: {
    unit: "bytes",
    needs: "domain",
    sql: (f, t, d) => Prisma.sql`SELECT date_trunc('day', m.created_at) AS day, coalesce(sum(m.size), 0)::int AS n FROM media_attachments m JOIN accounts a ON a.id = m.account_id WHERE lower(a.domain) = ${d} AND m.created_at >= ${f} AND m.created_at < ${t} GROUP BY 1`,
  },
  instance_reports: {
    unit: null,
    needs: "domain",
    sql: (f, t, d) => Prisma.sql`SELECT date_trunc('day', r.created_at) AS day, count(*)::int AS n FROM reports r JOIN accounts a ON a.id = r.target_id WHERE lower(a.domain) = ${d} AND r.created_at >= ${f} AND r.created_at < ${t} GROUP BY 1`,
  },
  instance_follows: {
    unit: null,
    needs: "domain",
    sql: (f, t, d) => Prisma.sql`SELECT date_trunc('day', fo.created_at) AS day, count(*)::int AS n FROM follows fo JOIN accounts a ON a.id = fo.follower_id WHERE lower(a.domain) = ${d} AND fo.following_id IN ${local} AND fo.created_at >= ${f} AND fo.created_at < ${t} GROUP BY 1`,
  },
  instance_followers: {
    unit: null,
    needs: "domain",
    sql: (f, t, d) => Prisma.sql`SELECT date_trunc('day', fo.created_at) AS day, count(*)::int AS n FROM follows fo JOIN accounts a ON a.id = fo.following_id WHERE lower(a.domain) = ${d} AND fo.follower_id IN ${local} AND fo.created_at >= ${f} AND fo.created_at < ${t} GROUP BY 1`,
  },
};

export interface Measure {
  key: string;
  unit: string | null;
  total: string;
  previous_total: string;
  data: { date: string; value: string }[];
}

const dayKey = (d: Date | string) => (d instanceof Date ? d.toISOString() : new Date(d).toISOString()).slice(0, 10);

async function daily(ctx: Ctx, sql: Prisma.Sql): Promise<Map<string, number>> {
  const rows = await ctx.db.$queryRaw<DayRow[]>(sql);
  return new Map(rows.map((r) => [dayKey(r.day), Number(r.n)]));
}

/** A key's own parameters, as the reference server takes them: `{"tag_uses": {"id": "…"}}`, `{"instance_statuses": {"domain": "…"}}`. */
const keyParam = z.object({ id: z.union([z.string(), z.number()]).transform(String).optional(), domain: z.string().optional() }).optional().nullable();
const PARAM_KEYS = ["tag_accounts", "tag_uses", "tag_servers", "tag_languages", "instance_accounts", "instance_media_attachments", "instance_reports", "instance_statuses", "instance_follows", "instance_followers", "instance_languages"] as const;
const keyParams = Object.fromEntries(PARAM_KEYS.map((k) => [k, keyParam])) as Record<(typeof PARAM_KEYS)[number], typeof keyParam>;
type KeyParams = Partial<Record<string, { id?: string; domain?: string } | null | undefined>>;

/** The tag id or domain a key needs: its own parameter, else the shared `tag_id` / `domain`. */
function argFor(input: KeyParams & { tag_id?: string; domain?: string }, key: string, needs: "tag_id" | "domain" | undefined): string | undefined {
  if (!needs) return "";
  const own = (input as Record<string, { id?: string; domain?: string } | null | undefined>)[key];
  return needs === "tag_id" ? (own?.id ?? input.tag_id) : (own?.domain ?? input.domain)?.trim().toLowerCase();
}

export const measures = operation({
  name: "admin.metrics.measures",
  access: { scopes: ["admin:read"], privilege: "statistics_read" },
  input: z.object({ keys: array(z.string()), ...range, tag_id: z.string().optional(), domain: z.string().optional(), ...keyParams }),
  async run(ctx, input): Promise<Measure[]> {
    const dayList = days(input.start_at, input.end_at);
    const [from, to] = bounds(dayList);
    const span = to.getTime() - from.getTime();
    const previous: [Date, Date] = [new Date(from.getTime() - span), from];
    const out: Measure[] = [];
    for (const key of input.keys) {
      // a key from the request: only the table's own ones (`constructor` is not a measure)
      const m = Object.hasOwn(MEASURES, key) ? MEASURES[key] : undefined;
      if (!m) continue;
      const arg = argFor(input, key, m.needs);
      if (arg === undefined) throw Invalid(`${key} needs ${m.needs}`, { [m.needs!]: "is required" });
      const [counts, before] = await Promise.all([daily(ctx, m.sql(from, to, arg)), daily(ctx, m.sql(previous[0], previous[1], arg))]);
      const data = dayList.map((date) => ({ date: `${date}T00:00:00Z`, value: String(counts.get(date) ?? 0) }));
      const total = [...counts.values()].reduce((a, b) => a + b, 0);
      const previousTotal = [...before.values()].reduce((a, b) => a + b, 0);
      out.push({ key, unit: m.unit, total: String(total), previous_total: String(previousTotal), data });
    }
    return out;
  },
});

// ---- dimensions

export interface Dimension {
  key: string;
  data: { key: string; human_key: string; value: string; unit?: string; human_value?: string }[];
}

type KeyRow = { k: string | null; n: number | bigint | string };

const languageName = (code: string) => {
  try {
    return new Intl.DisplayNames(["en"], { type: "language" }).of(code) ?? code;
  } catch {
    return code;
  }
};

const DIMENSIONS: Record<string, { needs?: "tag_id" | "domain"; sql?: (from: Date, to: Date, limit: number, arg: string) => Prisma.Sql; human?: (k: string) => string }> = {
  languages: {
    sql: (f, t, l) => Prisma.sql`SELECT coalesce(language, 'und') AS k, count(*)::int AS n FROM statuses WHERE local AND reblog_of_id IS NULL AND created_at >= ${f} AND created_at < ${t} GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT ${l}`,
    human: languageName,
  },
  sources: {
    sql: (f, t, l) => Prisma.sql`SELECT coalesce(o.name, 'web') AS k, count(*)::int AS n FROM statuses s LEFT JOIN oauth_apps o ON o.id = s.application_id WHERE s.local AND s.created_at >= ${f} AND s.created_at < ${t} GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT ${l}`,
  },
  servers: {
    sql: (f, t, l) => Prisma.sql`SELECT a.domain AS k, count(*)::int AS n FROM statuses s JOIN accounts a ON a.id = s.account_id WHERE NOT a.local AND s.created_at >= ${f} AND s.created_at < ${t} GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT ${l}`,
  },
  tag_servers: {
    needs: "tag_id",
    sql: (f, t, l, tag) => Prisma.sql`SELECT coalesce(a.domain, '') AS k, count(*)::int AS n FROM status_tags st JOIN statuses s ON s.id = st.status_id JOIN accounts a ON a.id = s.account_id WHERE st.tag_id = ${tag} AND s.created_at >= ${f} AND s.created_at < ${t} GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT ${l}`,
  },
  tag_languages: {
    needs: "tag_id",
    sql: (f, t, l, tag) => Prisma.sql`SELECT coalesce(s.language, 'und') AS k, count(*)::int AS n FROM status_tags st JOIN statuses s ON s.id = st.status_id WHERE st.tag_id = ${tag} AND s.created_at >= ${f} AND s.created_at < ${t} GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT ${l}`,
    human: languageName,
  },
  instance_accounts: {
    needs: "domain",
    // the server's most followed accounts (by followers here)
    sql: (_f, _t, l, d) => Prisma.sql`SELECT a.nickname AS k, count(fo.id)::int AS n FROM accounts a LEFT JOIN follows fo ON fo.following_id = a.id AND fo.state = 'accepted' WHERE lower(a.domain) = ${d} GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT ${l}`,
  },
  instance_languages: {
    needs: "domain",
    sql: (f, t, l, d) => Prisma.sql`SELECT coalesce(s.language, 'und') AS k, count(*)::int AS n FROM statuses s JOIN accounts a ON a.id = s.account_id WHERE lower(a.domain) = ${d} AND s.created_at >= ${f} AND s.created_at < ${t} GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT ${l}`,
    human: languageName,
  },
  space_usage: {},
  software_versions: {},
};

export const dimensions = operation({
  name: "admin.metrics.dimensions",
  access: { scopes: ["admin:read"], privilege: "statistics_read" },
  input: z.object({ keys: array(z.string()), ...range, limit: int().optional(), tag_id: z.string().optional(), domain: z.string().optional(), ...keyParams }),
  async run(ctx, input): Promise<Dimension[]> {
    const [from, to] = bounds(days(input.start_at, input.end_at));
    const limit = Math.min(Math.max(input.limit ?? 10, 1), 100);
    const out: Dimension[] = [];
    for (const key of input.keys) {
      const d = Object.hasOwn(DIMENSIONS, key) ? DIMENSIONS[key] : undefined;
      if (!d) continue;
      if (key === "space_usage") {
        const media = await ctx.db.mediaAttachment.aggregate({ where: { account: { local: true } }, _sum: { size: true } });
        const bytes = media._sum.size ?? 0;
        out.push({ key, data: [{ key: "media", human_key: "Media files", value: String(bytes), unit: "bytes", human_value: `${bytes} B` }] });
        continue;
      }
      if (key === "software_versions") {
        const [row] = await ctx.db.$queryRaw<{ v: string }[]>(Prisma.sql`SELECT current_setting('server_version') AS v`);
        out.push({
          key,
          data: [
            { key: "node", human_key: "Node.js", value: process.versions.node },
            { key: "postgresql", human_key: "PostgreSQL", value: row?.v ?? "" },
          ],
        });
        continue;
      }
      const arg = argFor(input, key, d.needs);
      if (arg === undefined) throw Invalid(`${key} needs ${d.needs}`, { [d.needs!]: "is required" });
      const rows = await ctx.db.$queryRaw<KeyRow[]>(d.sql!(from, to, limit, arg));
      out.push({ key, data: rows.map((r) => ({ key: r.k ?? "", human_key: d.human ? d.human(r.k ?? "") : (r.k ?? ""), value: String(Number(r.n)) })) });
    }
    return out;
  },
});

// ---- retention

export interface Cohort {
  period: string;
  frequency: "day" | "month";
  data: { date: string; rate: number; value: string }[];
}

const periodOf = (d: Date, frequency: "day" | "month") => (frequency === "day" ? d.toISOString().slice(0, 10) : d.toISOString().slice(0, 7) + "-01");

/** Sign-up cohorts (local accounts) per day or month, and the share of each still active in every later period. */
export const retention = operation({
  name: "admin.metrics.retention",
  access: { scopes: ["admin:read"], privilege: "statistics_read" },
  input: z.object({ ...range, frequency: z.enum(["day", "month"]).default("day") }),
  async run(ctx, input): Promise<Cohort[]> {
    const dayList = days(input.start_at, input.end_at);
    const [from, to] = bounds(dayList);
    const periods = [...new Set(dayList.map((d) => periodOf(new Date(`${d}T00:00:00Z`), input.frequency)))];
    const members = await ctx.db.account.findMany({ where: { local: true, createdAt: { gte: from, lt: to } }, select: { id: true, createdAt: true } });
    const activity = members.length
      ? await ctx.db.$queryRaw<{ account_id: string; day: Date | string }[]>(Prisma.sql`SELECT DISTINCT account_id, date_trunc('day', created_at) AS day FROM (
          SELECT account_id, created_at FROM statuses WHERE created_at >= ${from} AND created_at < ${to} AND account_id IN (${Prisma.join(members.map((m) => m.id))})
          UNION ALL SELECT account_id, created_at FROM favourites WHERE created_at >= ${from} AND created_at < ${to} AND account_id IN (${Prisma.join(members.map((m) => m.id))})) a`)
      : [];
    const activeIn = new Map<string, Set<string>>();
    for (const row of activity) {
      const p = periodOf(new Date(dayKey(row.day) + "T00:00:00Z"), input.frequency);
      if (!activeIn.has(p)) activeIn.set(p, new Set());
      activeIn.get(p)!.add(row.account_id);
    }
    return periods.map((period, i) => {
      const cohort = members.filter((m) => periodOf(m.createdAt, input.frequency) === period).map((m) => m.id);
      return {
        period: `${period}T00:00:00Z`,
        frequency: input.frequency,
        data: periods.slice(i).map((later) => {
          const value = cohort.filter((id) => activeIn.get(later)?.has(id)).length;
          return { date: `${later}T00:00:00Z`, rate: cohort.length ? value / cohort.length : 0, value: String(value) };
        }),
      };
    });
  },
});
