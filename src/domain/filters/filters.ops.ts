// Keyword filters of the reference API (v1): CRUD of the viewer's filters, and the helpers timelines
// use to apply them (`activeFilters`, `matchesFilter`, `rejectFiltered`).
import { z } from "zod";
import { newId } from "../../db/ids.ts";
import type { Filter, Status } from "../../generated/prisma/client.ts";
import { requireAccount } from "../auth/policy.ts";
import type { Ctx } from "../context.ts";
import { NotFound } from "../errors.ts";
import { array, bool, int } from "../inputs.ts";
import { operation } from "../operation.ts";
import { htmlToText } from "../statuses/formatter.ts";

export const FILTER_CONTEXTS = ["home", "notifications", "public", "thread", "account"] as const;
export type FilterContext = (typeof FILTER_CONTEXTS)[number];

/** The viewer's filters for a context that have not expired (none for anonymous viewers). */
export async function activeFilters(ctx: Ctx, context: FilterContext): Promise<Filter[]> {
  const viewerId = ctx.viewer.account?.id;
  if (!viewerId) return [];
  return ctx.db.filter.findMany({
    where: { accountId: viewerId, context: { has: context }, OR: [{ expiresAt: null }, { expiresAt: { gt: ctx.clock() } }] },
    orderBy: { id: "asc" },
  });
}

const WORD = /[\p{L}\p{N}_]/u;

/**
 * Case-insensitive match of a filter's phrase in a text. With `whole_word`, the phrase must not be
 * glued to letters or digits on a side where it starts or ends with one (the reference API's rule).
 */
export function matchesFilter(text: string, filter: Pick<Filter, "phrase" | "wholeWord">): boolean {
  const phrase = filter.phrase.trim();
  if (!phrase) return false;
  if (!filter.wholeWord) return text.toLocaleLowerCase().includes(phrase.toLocaleLowerCase());
  const escaped = phrase.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const start = WORD.test(phrase[0]) ? "(?<![\\p{L}\\p{N}_])" : "";
  const end = WORD.test(phrase[phrase.length - 1]) ? "(?![\\p{L}\\p{N}_])" : "";
  return new RegExp(`${start}${escaped}${end}`, "iu").test(text);
}

/** The text filters look at: the content warning and the content as plain text (poll options are not included). */
export function statusFilterText(status: Pick<Status, "spoilerText" | "content">): string {
  return `${status.spoilerText}\n${htmlToText(status.content)}`;
}

/** Drops statuses (reblogs by their original's text) matching any of the filters; one query for reblogged originals. */
export async function rejectFiltered<S extends Status>(ctx: Ctx, filters: readonly Filter[], statuses: S[]): Promise<S[]> {
  if (filters.length === 0 || statuses.length === 0) return statuses;
  const originalIds = [...new Set(statuses.flatMap((s) => (s.reblogOfId ? [s.reblogOfId] : [])))];
  const originals = originalIds.length ? new Map((await ctx.db.status.findMany({ where: { id: { in: originalIds } } })).map((s) => [s.id, s])) : new Map<string, Status>();
  return statuses.filter((s) => {
    const shown = s.reblogOfId ? originals.get(s.reblogOfId) : s;
    if (!shown) return true;
    const text = statusFilterText(shown);
    return !filters.some((f) => matchesFilter(text, f));
  });
}

const expiresIn = z.preprocess((v) => (v === "" ? null : v), z.union([int().refine((n) => n > 0, "must be positive"), z.null()]));

export const filterInput = z.object({
  phrase: z.string().trim().min(1, "can't be blank"),
  context: array(z.enum(FILTER_CONTEXTS)).refine((c) => c.length > 0, "can't be blank"),
  irreversible: bool().optional(),
  whole_word: bool().optional(),
  /** seconds from now; null or "" for never */
  expires_in: expiresIn.optional(),
});

const idInput = z.object({ id: z.string() });

async function ownFilter(ctx: Ctx, id: string): Promise<Filter> {
  const me = requireAccount(ctx);
  const filter = await ctx.db.filter.findFirst({ where: { id, accountId: me.id } });
  if (!filter) throw NotFound("Record not found");
  return filter;
}

function expiry(ctx: Ctx, seconds: number | null | undefined): Date | null | undefined {
  if (seconds === undefined) return undefined;
  return seconds === null ? null : new Date(ctx.clock().getTime() + seconds * 1000);
}

export const listFilters = operation({
  name: "filters.index",
  input: z.object({}),
  authorize: requireAccount,
  async run(ctx): Promise<Filter[]> {
    const me = requireAccount(ctx);
    return ctx.db.filter.findMany({ where: { accountId: me.id, OR: [{ expiresAt: null }, { expiresAt: { gt: ctx.clock() } }] }, orderBy: { id: "asc" } });
  },
});

export const getFilter = operation({
  name: "filters.show",
  input: idInput,
  authorize: requireAccount,
  run: (ctx, input) => ownFilter(ctx, input.id),
});

export const createFilter = operation({
  name: "filters.create",
  input: filterInput,
  authorize: requireAccount,
  async run(ctx, input): Promise<Filter> {
    const me = requireAccount(ctx);
    const created = await ctx.db.filter.create({
      data: {
        id: newId(),
        accountId: me.id,
        phrase: input.phrase,
        context: [...new Set(input.context)],
        irreversible: input.irreversible ?? false,
        wholeWord: input.whole_word ?? true,
        expiresAt: expiry(ctx, input.expires_in) ?? null,
      },
    });
    ctx.bus.publish("filters_changed", { accountId: me.id });
    return created;
  },
});

export const updateFilterInput = filterInput.partial().extend({ id: z.string() });

export const updateFilter = operation({
  name: "filters.update",
  input: updateFilterInput,
  authorize: requireAccount,
  async run(ctx, input): Promise<Filter> {
    const filter = await ownFilter(ctx, input.id);
    const expiresAt = expiry(ctx, input.expires_in);
    const updated = await ctx.db.filter.update({
      where: { id: filter.id },
      data: {
        ...(input.phrase !== undefined ? { phrase: input.phrase } : {}),
        ...(input.context !== undefined ? { context: [...new Set(input.context)] } : {}),
        ...(input.irreversible !== undefined ? { irreversible: input.irreversible } : {}),
        ...(input.whole_word !== undefined ? { wholeWord: input.whole_word } : {}),
        ...(expiresAt !== undefined ? { expiresAt } : {}),
      },
    });
    ctx.bus.publish("filters_changed", { accountId: filter.accountId });
    return updated;
  },
});

export const deleteFilter = operation({
  name: "filters.delete",
  input: idInput,
  authorize: requireAccount,
  async run(ctx, input): Promise<void> {
    const filter = await ownFilter(ctx, input.id);
    await ctx.db.filter.delete({ where: { id: filter.id } });
    ctx.bus.publish("filters_changed", { accountId: filter.accountId });
  },
});
