// The reference admin API's domain blocks and domain allows (`/api/v1/admin/domain_blocks`,
// `/api/v1/admin/domain_allows`): rows of their own tables that the runtime settings merge into the
// SimplePolicy lists (src/config/domain-rules.ts), applied in every process at once. Admins only, as
// the family's own way of changing those lists (its configuration) is. Each change is logged. A
// suspension cuts the follows with the domain, recorded as severed relationships (severances.ts).
import { domainToASCII } from "node:url";
import { z } from "zod";
import { newId } from "../../db/ids.ts";
import type { InstanceDomainAllow, InstanceDomainBlock } from "../../generated/prisma/client.ts";
import { applyEverywhere } from "../config/config.ops.ts";
import type { Ctx } from "../context.ts";
import { DomainError, NotFound, Unprocessable } from "../../kernel/errors.ts";
import { text } from "../input-limits.ts";
import { bool } from "../inputs.ts";
import { logAction } from "../moderation-log/log.ts";
import { operation } from "../operation.ts";
import { severDomain } from "../relationships/severances.ts";
import { keyset, pageInput, type Page } from "../pagination.ts";

export const DOMAIN_BLOCK_SEVERITIES = ["silence", "suspend", "noop"] as const;

/** A host as the lists store it: lower case, IDN in ASCII, no trailing dot; `*.` (all subdomains) kept. Null when it is not one. */
export function normalizeDomain(raw: string): string | null {
  const trimmed = raw.trim().toLowerCase().replace(/\.$/, "");
  const wildcard = trimmed.startsWith("*.");
  const ascii = domainToASCII(wildcard ? trimmed.slice(2) : trimmed);
  if (!ascii || !/^([a-z0-9_-]+\.)*[a-z0-9_-]+(:\d{1,5})?$/.test(ascii)) return null;
  return wildcard ? `*.${ascii}` : ascii;
}

export function requireDomain(raw: string): string {
  const domain = normalizeDomain(raw);
  if (!domain) throw Unprocessable("Validation failed: Domain is not a valid domain name", { domain: "is invalid" });
  return domain;
}

/** 422 of the reference server when the domain already has a block: the existing one comes with it. */
export class DomainBlockExists extends DomainError {
  constructor(readonly existing: InstanceDomainBlock) {
    super("unprocessable", `Validation failed: Domain has already been taken (${existing.domain} is already blocked)`);
  }
}

const listInput = pageInput;

async function page<T extends { id: string }>(input: z.output<typeof listInput>, find: (args: { where: object; orderBy: object; take: number }) => Promise<T[]>): Promise<Page<T>> {
  const k = keyset(input, { defaultLimit: 100, maxLimit: 200 });
  const rows = await find({ where: k.cursor ? { id: k.cursor } : {}, orderBy: { id: k.order }, take: k.take });
  return k.finish(rows, (r) => r.id);
}

const fields = {
  severity: z.enum(DOMAIN_BLOCK_SEVERITIES).optional(),
  reject_media: bool().optional(),
  reject_reports: bool().optional(),
  private_comment: text().optional().nullable(),
  public_comment: text().optional().nullable(),
  obfuscate: bool().optional(),
};

function blockData(input: { severity?: string; reject_media?: boolean; reject_reports?: boolean; private_comment?: string | null; public_comment?: string | null; obfuscate?: boolean }) {
  return {
    ...(input.severity !== undefined && { severity: input.severity }),
    ...(input.reject_media !== undefined && { rejectMedia: input.reject_media }),
    ...(input.reject_reports !== undefined && { rejectReports: input.reject_reports }),
    ...(input.private_comment !== undefined && { privateComment: input.private_comment || null }),
    ...(input.public_comment !== undefined && { publicComment: input.public_comment || null }),
    ...(input.obfuscate !== undefined && { obfuscate: input.obfuscate }),
  };
}

const detail = (b: InstanceDomainBlock) => [b.severity, b.rejectMedia && "reject media", b.rejectReports && "reject reports"].filter(Boolean).join(", ");

export const listDomainBlocks = operation({
  name: "admin.domainBlocks.list",
  access: { scopes: ["admin:read:domain_blocks"], role: "admin" },
  input: listInput,
  run: (ctx, input) => page(input, (args) => ctx.db.instanceDomainBlock.findMany(args)),
});

async function findBlock(ctx: Ctx, id: string) {
  const block = await ctx.db.instanceDomainBlock.findUnique({ where: { id } });
  if (!block) throw NotFound("Record not found");
  return block;
}

export const showDomainBlock = operation({
  name: "admin.domainBlocks.show",
  access: { scopes: ["admin:read:domain_blocks"], role: "admin" },
  input: z.object({ id: z.string() }),
  run: (ctx, input) => findBlock(ctx, input.id),
});

export const createDomainBlock = operation({
  name: "admin.domainBlocks.create",
  access: { scopes: ["admin:write:domain_blocks"], role: "admin" },
  input: z.object({ domain: z.string(), ...fields }),
  async run(ctx, input) {
    const domain = requireDomain(input.domain);
    const existing = await ctx.db.instanceDomainBlock.findUnique({ where: { domain } });
    if (existing) throw new DomainBlockExists(existing);
    const block = await ctx.db.$transaction(async (tx) => {
      const row = await tx.instanceDomainBlock.create({ data: { id: newId(ctx.clock().getTime()), domain, createdAt: ctx.clock(), ...blockData(input) } });
      await logAction(ctx, { action: "blocklist_add", list: "domain block", target: domain, detail: detail(row) }, tx);
      return row;
    });
    await applyEverywhere(ctx);
    if (block.severity === "suspend") await severDomain(ctx, { type: "domain_block", domain });
    return block;
  },
});

export const updateDomainBlock = operation({
  name: "admin.domainBlocks.update",
  access: { scopes: ["admin:write:domain_blocks"], role: "admin" },
  input: z.object({ id: z.string(), ...fields }),
  async run(ctx, input) {
    const before = await findBlock(ctx, input.id);
    const block = await ctx.db.$transaction(async (tx) => {
      const row = await tx.instanceDomainBlock.update({ where: { id: input.id }, data: blockData(input) });
      await logAction(ctx, { action: "blocklist_update", list: "domain block", target: row.domain, detail: detail(row) }, tx);
      return row;
    });
    await applyEverywhere(ctx);
    if (block.severity === "suspend" && before.severity !== "suspend") await severDomain(ctx, { type: "domain_block", domain: block.domain });
    return block;
  },
});

export const deleteDomainBlock = operation({
  name: "admin.domainBlocks.delete",
  access: { scopes: ["admin:write:domain_blocks"], role: "admin" },
  input: z.object({ id: z.string() }),
  async run(ctx, input) {
    const block = await findBlock(ctx, input.id);
    await ctx.db.$transaction(async (tx) => {
      await tx.instanceDomainBlock.delete({ where: { id: block.id } });
      await logAction(ctx, { action: "blocklist_remove", list: "domain block", target: block.domain }, tx);
    });
    await applyEverywhere(ctx);
    return block;
  },
});

// ---- domain allows: the allow-list (SimplePolicy `accept`); its first entry turns allow-list mode on

export const listDomainAllows = operation({
  name: "admin.domainAllows.list",
  access: { scopes: ["admin:read:domain_allows"], role: "admin" },
  input: listInput,
  run: (ctx, input) => page(input, (args) => ctx.db.instanceDomainAllow.findMany(args)),
});

async function findAllow(ctx: Ctx, id: string): Promise<InstanceDomainAllow> {
  const allow = await ctx.db.instanceDomainAllow.findUnique({ where: { id } });
  if (!allow) throw NotFound("Record not found");
  return allow;
}

export const showDomainAllow = operation({
  name: "admin.domainAllows.show",
  access: { scopes: ["admin:read:domain_allows"], role: "admin" },
  input: z.object({ id: z.string() }),
  run: (ctx, input) => findAllow(ctx, input.id),
});

/** Allowing a domain already allowed answers the existing entry, as the reference server does. */
export const createDomainAllow = operation({
  name: "admin.domainAllows.create",
  access: { scopes: ["admin:write:domain_allows"], role: "admin" },
  input: z.object({ domain: z.string() }),
  async run(ctx, input) {
    const domain = requireDomain(input.domain);
    const existing = await ctx.db.instanceDomainAllow.findUnique({ where: { domain } });
    if (existing) return existing;
    const allow = await ctx.db.$transaction(async (tx) => {
      const row = await tx.instanceDomainAllow.create({ data: { id: newId(ctx.clock().getTime()), domain, createdAt: ctx.clock() } });
      await logAction(ctx, { action: "blocklist_add", list: "domain allow", target: domain }, tx);
      return row;
    });
    await applyEverywhere(ctx);
    return allow;
  },
});

export const deleteDomainAllow = operation({
  name: "admin.domainAllows.delete",
  access: { scopes: ["admin:write:domain_allows"], role: "admin" },
  input: z.object({ id: z.string() }),
  async run(ctx, input) {
    const allow = await findAllow(ctx, input.id);
    await ctx.db.$transaction(async (tx) => {
      await tx.instanceDomainAllow.delete({ where: { id: allow.id } });
      await logAction(ctx, { action: "blocklist_remove", list: "domain allow", target: allow.domain }, tx);
    });
    await applyEverywhere(ctx);
    return allow;
  },
});
