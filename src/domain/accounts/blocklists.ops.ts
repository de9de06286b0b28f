// The reference admin API's sign-up and sign-in blocklists: e-mail domain blocks, canonical e-mail blocks
// and IP blocks (enforced by src/domain/auth/access-blocks.ts). Admins only, as domain blocks; every
// change is logged.
import { z } from "zod";
import { newId } from "../../db/ids.ts";
import type { Prisma } from "../../generated/prisma/client.ts";
import { canonicalEmailHash, IP_BLOCK_SEVERITIES, parseCidr } from "../auth/access-blocks.ts";
import type { Ctx } from "../context.ts";
import { NotFound, Unprocessable } from "../../kernel/errors.ts";
import { text } from "../input-limits.ts";
import { int, isEmailAddress } from "../inputs.ts";
import { logAction } from "../moderation-log/log.ts";
import { operation } from "../operation.ts";
import { keyset, pageInput, type Page } from "../pagination.ts";
import { normalizeDomain } from "../instances/domain-blocks.ops.ts";

const byId = z.object({ id: z.string() });

function paged<T extends { id: string }>(input: z.output<typeof pageInput>, find: (args: { where: object; orderBy: object; take: number }) => Promise<T[]>): Promise<Page<T>> {
  const k = keyset(input, { defaultLimit: 100, maxLimit: 200 });
  return find({ where: k.cursor ? { id: k.cursor } : {}, orderBy: { id: k.order }, take: k.take }).then((rows) => k.finish(rows, (r) => r.id));
}

function found<T>(row: T | null): T {
  if (!row) throw NotFound("Record not found");
  return row;
}

const taken = (what: string) => Unprocessable(`Validation failed: ${what} has already been taken`, { [what.toLowerCase()]: "has already been taken" });

// ---- e-mail domain blocks

export const listEmailDomainBlocks = operation({
  name: "admin.emailDomainBlocks.list",
  access: { scopes: ["admin:read:email_domain_blocks"], role: "admin" },
  input: pageInput,
  run: (ctx, input) => paged(input, (args) => ctx.db.emailDomainBlock.findMany(args)),
});

export const showEmailDomainBlock = operation({
  name: "admin.emailDomainBlocks.show",
  access: { scopes: ["admin:read:email_domain_blocks"], role: "admin" },
  input: byId,
  run: async (ctx, input) => found(await ctx.db.emailDomainBlock.findUnique({ where: { id: input.id } })),
});

export const createEmailDomainBlock = operation({
  name: "admin.emailDomainBlocks.create",
  access: { scopes: ["admin:write:email_domain_blocks"], role: "admin" },
  input: z.object({ domain: z.string() }),
  async run(ctx, input) {
    const domain = normalizeDomain(input.domain.replace(/^@/, ""));
    if (!domain || domain.startsWith("*.")) throw Unprocessable("Validation failed: Domain is not a valid domain name", { domain: "is invalid" });
    if (await ctx.db.emailDomainBlock.findUnique({ where: { domain } })) throw taken("Domain");
    return ctx.db.$transaction(async (tx) => {
      const row = await tx.emailDomainBlock.create({ data: { id: newId(ctx.clock().getTime()), domain, createdAt: ctx.clock() } });
      await logAction(ctx, { action: "blocklist_add", list: "e-mail domain block", target: domain }, tx);
      return row;
    });
  },
});

export const deleteEmailDomainBlock = operation({
  name: "admin.emailDomainBlocks.delete",
  access: { scopes: ["admin:write:email_domain_blocks"], role: "admin" },
  input: byId,
  async run(ctx, input) {
    const row = found(await ctx.db.emailDomainBlock.findUnique({ where: { id: input.id } }));
    await ctx.db.$transaction(async (tx) => {
      await tx.emailDomainBlock.delete({ where: { id: row.id } });
      await logAction(ctx, { action: "blocklist_remove", list: "e-mail domain block", target: row.domain }, tx);
    });
    return row;
  },
});

// ---- canonical e-mail blocks

export const listCanonicalEmailBlocks = operation({
  name: "admin.canonicalEmailBlocks.list",
  access: { scopes: ["admin:read:canonical_email_blocks"], role: "admin" },
  input: pageInput,
  run: (ctx, input) => paged(input, (args) => ctx.db.canonicalEmailBlock.findMany(args)),
});

export const showCanonicalEmailBlock = operation({
  name: "admin.canonicalEmailBlocks.show",
  access: { scopes: ["admin:read:canonical_email_blocks"], role: "admin" },
  input: byId,
  run: async (ctx, input) => found(await ctx.db.canonicalEmailBlock.findUnique({ where: { id: input.id } })),
});

/** The blocks an address falls under (the reference API's `test`). */
export const testCanonicalEmailBlocks = operation({
  name: "admin.canonicalEmailBlocks.test",
  access: { scopes: ["admin:read:canonical_email_blocks"], role: "admin" },
  input: z.object({ email: z.string() }),
  run: (ctx, input) => ctx.db.canonicalEmailBlock.findMany({ where: { canonicalEmailHash: canonicalEmailHash(input.email) } }),
});

/** Blocks an address in its canonical form: given as `email`, or already hashed as `canonical_email_hash`. */
export const createCanonicalEmailBlock = operation({
  name: "admin.canonicalEmailBlocks.create",
  access: { scopes: ["admin:write:canonical_email_blocks"], role: "admin" },
  input: z.object({ email: z.string().optional(), canonical_email_hash: z.string().optional() }),
  async run(ctx, input) {
    let hash: string;
    if (input.email) {
      if (!isEmailAddress(input.email.trim())) throw Unprocessable("Validation failed: Email is invalid", { email: "is invalid" });
      hash = canonicalEmailHash(input.email);
    } else if (input.canonical_email_hash && /^[0-9a-f]{64}$/i.test(input.canonical_email_hash.trim())) hash = input.canonical_email_hash.trim().toLowerCase();
    else throw Unprocessable("Validation failed: Canonical email hash can't be blank", { canonical_email_hash: "can't be blank" });
    if (await ctx.db.canonicalEmailBlock.findUnique({ where: { canonicalEmailHash: hash } })) throw taken("Canonical email hash");
    return ctx.db.$transaction(async (tx) => {
      const row = await tx.canonicalEmailBlock.create({ data: { id: newId(ctx.clock().getTime()), canonicalEmailHash: hash, createdAt: ctx.clock() } });
      await logAction(ctx, { action: "blocklist_add", list: "canonical e-mail block", target: hash }, tx);
      return row;
    });
  },
});

export const deleteCanonicalEmailBlock = operation({
  name: "admin.canonicalEmailBlocks.delete",
  access: { scopes: ["admin:write:canonical_email_blocks"], role: "admin" },
  input: byId,
  async run(ctx, input) {
    const row = found(await ctx.db.canonicalEmailBlock.findUnique({ where: { id: input.id } }));
    await ctx.db.$transaction(async (tx) => {
      await tx.canonicalEmailBlock.delete({ where: { id: row.id } });
      await logAction(ctx, { action: "blocklist_remove", list: "canonical e-mail block", target: row.canonicalEmailHash }, tx);
    });
    return row;
  },
});

// ---- IP blocks

const ipFields = {
  severity: z.enum(IP_BLOCK_SEVERITIES),
  comment: text().optional().nullable(),
  /** seconds from now */
  expires_in: int().optional().nullable(),
};

/** The range as stored: a CIDR (a single address gets its full prefix), or the reference server's 422. */
function cidrOf(raw: string): string {
  const cidr = parseCidr(raw);
  if (!cidr) throw Unprocessable("Validation failed: Ip is invalid", { ip: "is invalid" });
  return `${cidr[0]}/${cidr[1]}`;
}

function ipData(ctx: Ctx, input: { comment?: string | null; expires_in?: number | null }): Partial<Prisma.IpBlockCreateInput> {
  return {
    ...(input.comment !== undefined && { comment: input.comment ?? "" }),
    ...(input.expires_in !== undefined && { expiresAt: input.expires_in ? new Date(ctx.clock().getTime() + input.expires_in * 1000) : null }),
  };
}

export const listIpBlocks = operation({
  name: "admin.ipBlocks.list",
  access: { scopes: ["admin:read:ip_blocks"], role: "admin" },
  input: pageInput,
  run: (ctx, input) => paged(input, (args) => ctx.db.ipBlock.findMany(args)),
});

export const showIpBlock = operation({
  name: "admin.ipBlocks.show",
  access: { scopes: ["admin:read:ip_blocks"], role: "admin" },
  input: byId,
  run: async (ctx, input) => found(await ctx.db.ipBlock.findUnique({ where: { id: input.id } })),
});

export const createIpBlock = operation({
  name: "admin.ipBlocks.create",
  access: { scopes: ["admin:write:ip_blocks"], role: "admin" },
  input: z.object({ ip: z.string(), ...ipFields }),
  async run(ctx, input) {
    const ip = cidrOf(input.ip);
    if (input.expires_in !== undefined && input.expires_in !== null && input.expires_in <= 0) throw Unprocessable("Validation failed: Expires in must be positive", { expires_in: "is invalid" });
    return ctx.db.$transaction(async (tx) => {
      const row = await tx.ipBlock.create({ data: { id: newId(ctx.clock().getTime()), ip, severity: input.severity, createdAt: ctx.clock(), ...ipData(ctx, input) } });
      await logAction(ctx, { action: "blocklist_add", list: "IP block", target: ip, detail: input.severity }, tx);
      return row;
    });
  },
});

export const updateIpBlock = operation({
  name: "admin.ipBlocks.update",
  access: { scopes: ["admin:write:ip_blocks"], role: "admin" },
  input: z.object({ id: z.string(), ip: z.string().optional(), severity: ipFields.severity.optional(), comment: ipFields.comment, expires_in: ipFields.expires_in }),
  async run(ctx, input) {
    found(await ctx.db.ipBlock.findUnique({ where: { id: input.id } }));
    const data = { ...(input.ip !== undefined && { ip: cidrOf(input.ip) }), ...(input.severity && { severity: input.severity }), ...ipData(ctx, input) };
    return ctx.db.$transaction(async (tx) => {
      const row = await tx.ipBlock.update({ where: { id: input.id }, data });
      await logAction(ctx, { action: "blocklist_update", list: "IP block", target: row.ip, detail: row.severity }, tx);
      return row;
    });
  },
});

export const deleteIpBlock = operation({
  name: "admin.ipBlocks.delete",
  access: { scopes: ["admin:write:ip_blocks"], role: "admin" },
  input: byId,
  async run(ctx, input) {
    const row = found(await ctx.db.ipBlock.findUnique({ where: { id: input.id } }));
    await ctx.db.$transaction(async (tx) => {
      await tx.ipBlock.delete({ where: { id: row.id } });
      await logAction(ctx, { action: "blocklist_remove", list: "IP block", target: row.ip }, tx);
    });
    return row;
  },
});
