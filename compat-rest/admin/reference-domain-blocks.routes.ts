// The reference admin API's domain blocks and domain allows (admins only, as the family's own way of
// changing the SimplePolicy lists is). Errors are the reference server's `{error}`.
import { z } from "zod";
import {
  createDomainAllow,
  createDomainBlock,
  deleteDomainAllow,
  deleteDomainBlock,
  DomainBlockExists,
  listDomainAllows,
  listDomainBlocks,
  showDomainAllow,
  showDomainBlock,
  updateDomainBlock,
} from "../../src/domain/instances/domain-blocks.ops.ts";
import { pageInput } from "../../src/domain/pagination.ts";
import type { DomainError } from "../../src/kernel/errors.ts";
import { route } from "../../src/http/routes/route.ts";
import { renderDomainAllow, renderDomainBlock } from "../../src/views/reference-admin.ts";
import { EmptySchema } from "../../src/views/schemas/misc.ts";
import { AdminDomainAllowSchema, AdminDomainBlockSchema } from "../../src/views/schemas/reference-admin.ts";
import { listOf } from "../../src/views/schemas/view.ts";

const id = z.object({ id: z.string() });
const tags = ["Admin (reference): federation"];

/** A second block of a domain is refused with the existing one, so synchronisers can update it instead. */
const existingBlock = (e: DomainError) => (e instanceof DomainBlockExists ? { status: 422, body: { error: e.message, existing_domain_block: renderDomainBlock(e.existing) } } : undefined);

const blockBody = createDomainBlock.input.omit({ domain: true });

export const referenceDomainBlockRoutes = [
  route({
    method: "GET",
    path: "/api/v1/admin/domain_blocks",
    view: listOf(AdminDomainBlockSchema),
    summary: "Domain blocks, newest first (keyset pages: max_id, since_id, min_id, limit ≤ 200)",
    tags,
    operation: listDomainBlocks,
    query: pageInput,
    paged: "id",
    async handler(ctx, { query }) {
      const page = await listDomainBlocks(ctx, query);
      return { ...page, items: page.items.map(renderDomainBlock) };
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/admin/domain_blocks/:id",
    view: AdminDomainBlockSchema,
    summary: "One domain block",
    tags,
    operation: showDomainBlock,
    params: id,
    handler: async (ctx, { params }) => renderDomainBlock(await showDomainBlock(ctx, params)),
  }),
  route({
    method: "POST",
    path: "/api/v1/admin/domain_blocks",
    view: AdminDomainBlockSchema,
    summary: "Block a domain: severity silence (default), suspend or noop; reject_media, reject_reports, comments, obfuscate",
    tags,
    operation: createDomainBlock,
    body: createDomainBlock.input,
    errors: existingBlock,
    response: { description: "DomainBlock; 422 `{error, existing_domain_block}` when the domain is already blocked" },
    handler: async (ctx, { body }) => renderDomainBlock(await createDomainBlock(ctx, body)),
  }),
  route({
    method: "PUT",
    path: "/api/v1/admin/domain_blocks/:id",
    view: AdminDomainBlockSchema,
    summary: "Change a domain block",
    tags,
    operation: updateDomainBlock,
    params: id,
    body: blockBody,
    handler: async (ctx, { params, body }) => renderDomainBlock(await updateDomainBlock(ctx, { ...body, id: params.id })),
  }),
  route({
    method: "DELETE",
    path: "/api/v1/admin/domain_blocks/:id",
    view: EmptySchema,
    summary: "Lift a domain block",
    tags,
    operation: deleteDomainBlock,
    params: id,
    handler: async (ctx, { params }) => (await deleteDomainBlock(ctx, params), {}),
  }),
  route({
    method: "GET",
    path: "/api/v1/admin/domain_allows",
    view: listOf(AdminDomainAllowSchema),
    summary: "Allowed domains (the allow-list: when it is not empty only these federate)",
    tags,
    operation: listDomainAllows,
    query: pageInput,
    paged: "id",
    async handler(ctx, { query }) {
      const page = await listDomainAllows(ctx, query);
      return { ...page, items: page.items.map(renderDomainAllow) };
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/admin/domain_allows/:id",
    view: AdminDomainAllowSchema,
    summary: "One allowed domain",
    tags,
    operation: showDomainAllow,
    params: id,
    handler: async (ctx, { params }) => renderDomainAllow(await showDomainAllow(ctx, params)),
  }),
  route({
    method: "POST",
    path: "/api/v1/admin/domain_allows",
    view: AdminDomainAllowSchema,
    summary: "Allow a domain (the first one turns allow-list federation on)",
    tags,
    operation: createDomainAllow,
    body: createDomainAllow.input,
    handler: async (ctx, { body }) => renderDomainAllow(await createDomainAllow(ctx, body)),
  }),
  route({
    method: "DELETE",
    path: "/api/v1/admin/domain_allows/:id",
    view: EmptySchema,
    summary: "Remove an allowed domain",
    tags,
    operation: deleteDomainAllow,
    params: id,
    handler: async (ctx, { params }) => (await deleteDomainAllow(ctx, params), {}),
  }),
];
