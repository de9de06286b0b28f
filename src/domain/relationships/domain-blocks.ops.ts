// Domains a user hides (the reference API's user-level domain blocks).
import { z } from "zod";
import { newId } from "../../db/ids.ts";
import { requireAccount } from "../auth/policy.ts";
import { Invalid } from "../../kernel/errors.ts";
import { operation } from "../operation.ts";
import { keyset, pageInput, type Page } from "../pagination.ts";
import { signedIn } from "./relationships.policy.ts";
import { severDomain } from "./severances.ts";

/** "Example.COM " → "example.com"; a pasted URL keeps only its host. */
export function normalizeDomain(raw: string): string {
  let d = raw.trim().toLowerCase();
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(d)) {
    try {
      d = new URL(d).host;
    } catch {
      /* keep as typed */
    }
  }
  return d.replace(/\/+$/, "");
}

const domainInput = z.object({ domain: z.string() });

function domainOf(input: { domain: string }) {
  const domain = normalizeDomain(input.domain);
  if (!domain) throw Invalid("Missing field: domain.", { domain: "Missing field: domain." });
  return domain;
}

export const blockDomain = operation({
  name: "relationships.blockDomain",
  access: { scopes: ["follow", "write:blocks"] },
  input: domainInput,
  authorize: signedIn,
  async run(ctx, input) {
    const me = requireAccount(ctx);
    const domain = domainOf(input);
    await ctx.db.domainBlock.upsert({ where: { accountId_domain: { accountId: me.id, domain } }, create: { id: newId(), accountId: me.id, domain }, update: {} });
    // as in the reference: the follows with the domain go both ways, recorded as severed relationships
    await severDomain(ctx, { type: "user_domain_block", domain, localAccountId: me.id });
  },
});

export const unblockDomain = operation({
  name: "relationships.unblockDomain",
  access: { scopes: ["follow", "write:blocks"] },
  input: domainInput,
  authorize: signedIn,
  async run(ctx, input) {
    const me = requireAccount(ctx);
    await ctx.db.domainBlock.deleteMany({ where: { accountId: me.id, domain: domainOf(input) } });
  },
});

/** The viewer's blocked domains, newest first, paged by block id (the reference API pages 100 at a time, up to 200). */
export const listDomainBlocks = operation({
  name: "relationships.domainBlocks",
  access: { scopes: ["follow", "read:blocks"] },
  input: pageInput,
  authorize: signedIn,
  async run(ctx, input): Promise<Page<string>> {
    const me = requireAccount(ctx);
    const page = keyset(input, { defaultLimit: 100, maxLimit: 200 });
    const rows = await ctx.db.domainBlock.findMany({
      where: { accountId: me.id, ...(page.cursor ? { id: page.cursor } : {}) },
      orderBy: { id: page.order },
      take: page.take,
    });
    const result = page.finish(rows, (r) => r.id);
    return { ...result, items: result.items.map((r) => r.domain) };
  },
});
