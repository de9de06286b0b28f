// The reference admin API's sign-up and sign-in blocklists: e-mail domain blocks, canonical e-mail
// blocks and IP blocks (admins only). Lists page like the reference server's (max_id, since_id, min_id, limit ≤ 200).
import { z } from "zod";
import {
  createCanonicalEmailBlock,
  createEmailDomainBlock,
  createIpBlock,
  deleteCanonicalEmailBlock,
  deleteEmailDomainBlock,
  deleteIpBlock,
  listCanonicalEmailBlocks,
  listEmailDomainBlocks,
  listIpBlocks,
  showCanonicalEmailBlock,
  showEmailDomainBlock,
  showIpBlock,
  testCanonicalEmailBlocks,
  updateIpBlock,
} from "../../src/domain/accounts/blocklists.ops.ts";
import { pageInput } from "../../src/domain/pagination.ts";
import { route } from "../../src/http/routes/route.ts";
import { renderCanonicalEmailBlock, renderEmailDomainBlock, renderIpBlock } from "../../src/views/reference-admin.ts";
import { EmptySchema } from "../../src/views/schemas/misc.ts";
import { AdminCanonicalEmailBlockSchema, AdminEmailDomainBlockSchema, AdminIpBlockSchema } from "../../src/views/schemas/reference-admin.ts";
import { listOf } from "../../src/views/schemas/view.ts";

const id = z.object({ id: z.string() });
const tags = ["Admin (reference): blocklists"];

export const referenceBlocklistRoutes = [
  route({
    method: "GET",
    path: "/api/v1/admin/email_domain_blocks",
    view: listOf(AdminEmailDomainBlockSchema),
    summary: "E-mail domains refused at sign-up (with their subdomains)",
    tags,
    operation: listEmailDomainBlocks,
    query: pageInput,
    paged: "id",
    async handler(ctx, { query }) {
      const page = await listEmailDomainBlocks(ctx, query);
      return { ...page, items: page.items.map(renderEmailDomainBlock) };
    },
  }),
  route({ method: "GET", path: "/api/v1/admin/email_domain_blocks/:id", view: AdminEmailDomainBlockSchema, summary: "One e-mail domain block", tags, operation: showEmailDomainBlock, params: id, handler: async (ctx, { params }) => renderEmailDomainBlock(await showEmailDomainBlock(ctx, params)) }),
  route({ method: "POST", path: "/api/v1/admin/email_domain_blocks", view: AdminEmailDomainBlockSchema, summary: "Refuse sign-ups from an e-mail domain", tags, operation: createEmailDomainBlock, body: createEmailDomainBlock.input, handler: async (ctx, { body }) => renderEmailDomainBlock(await createEmailDomainBlock(ctx, body)) }),
  route({ method: "DELETE", path: "/api/v1/admin/email_domain_blocks/:id", view: EmptySchema, summary: "Lift an e-mail domain block", tags, operation: deleteEmailDomainBlock, params: id, handler: async (ctx, { params }) => (await deleteEmailDomainBlock(ctx, params), {}) }),

  route({
    method: "GET",
    path: "/api/v1/admin/canonical_email_blocks",
    view: listOf(AdminCanonicalEmailBlockSchema),
    summary: "Canonical e-mail addresses refused at sign-up (SHA-256 of the canonical form)",
    tags,
    operation: listCanonicalEmailBlocks,
    query: pageInput,
    paged: "id",
    async handler(ctx, { query }) {
      const page = await listCanonicalEmailBlocks(ctx, query);
      return { ...page, items: page.items.map(renderCanonicalEmailBlock) };
    },
  }),
  route({
    method: "POST",
    path: "/api/v1/admin/canonical_email_blocks/test",
    view: listOf(AdminCanonicalEmailBlockSchema),
    summary: "The canonical e-mail blocks an address falls under",
    tags,
    operation: testCanonicalEmailBlocks,
    body: testCanonicalEmailBlocks.input,
    handler: async (ctx, { body }) => (await testCanonicalEmailBlocks(ctx, body)).map(renderCanonicalEmailBlock),
  }),
  route({ method: "GET", path: "/api/v1/admin/canonical_email_blocks/:id", view: AdminCanonicalEmailBlockSchema, summary: "One canonical e-mail block", tags, operation: showCanonicalEmailBlock, params: id, handler: async (ctx, { params }) => renderCanonicalEmailBlock(await showCanonicalEmailBlock(ctx, params)) }),
  route({
    method: "POST",
    path: "/api/v1/admin/canonical_email_blocks",
    view: AdminCanonicalEmailBlockSchema,
    summary: "Refuse an address in its canonical form (`email`, or its `canonical_email_hash`)",
    tags,
    operation: createCanonicalEmailBlock,
    body: createCanonicalEmailBlock.input,
    handler: async (ctx, { body }) => renderCanonicalEmailBlock(await createCanonicalEmailBlock(ctx, body)),
  }),
  route({ method: "DELETE", path: "/api/v1/admin/canonical_email_blocks/:id", view: EmptySchema, summary: "Lift a canonical e-mail block", tags, operation: deleteCanonicalEmailBlock, params: id, handler: async (ctx, { params }) => (await deleteCanonicalEmailBlock(ctx, params), {}) }),

  route({
    method: "GET",
    path: "/api/v1/admin/ip_blocks",
    view: listOf(AdminIpBlockSchema),
    summary: "IP ranges and what they may not do (sign_up_requires_approval, sign_up_block, no_access)",
    tags,
    operation: listIpBlocks,
    query: pageInput,
    paged: "id",
    async handler(ctx, { query }) {
      const page = await listIpBlocks(ctx, query);
      return { ...page, items: page.items.map(renderIpBlock) };
    },
  }),
  route({ method: "GET", path: "/api/v1/admin/ip_blocks/:id", view: AdminIpBlockSchema, summary: "One IP block", tags, operation: showIpBlock, params: id, handler: async (ctx, { params }) => renderIpBlock(await showIpBlock(ctx, params)) }),
  route({ method: "POST", path: "/api/v1/admin/ip_blocks", view: AdminIpBlockSchema, summary: "Block an IP range (CIDR); expires_in seconds", tags, operation: createIpBlock, body: createIpBlock.input, handler: async (ctx, { body }) => renderIpBlock(await createIpBlock(ctx, body)) }),
  route({
    method: "PUT",
    path: "/api/v1/admin/ip_blocks/:id",
    view: AdminIpBlockSchema,
    summary: "Change an IP block",
    tags,
    operation: updateIpBlock,
    params: id,
    body: updateIpBlock.input.omit({ id: true }),
    handler: async (ctx, { params, body }) => renderIpBlock(await updateIpBlock(ctx, { ...body, id: params.id })),
  }),
  route({ method: "DELETE", path: "/api/v1/admin/ip_blocks/:id", view: EmptySchema, summary: "Lift an IP block", tags, operation: deleteIpBlock, params: id, handler: async (ctx, { params }) => (await deleteIpBlock(ctx, params), {}) }),
];
