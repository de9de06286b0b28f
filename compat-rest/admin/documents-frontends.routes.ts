// Admin API: instance documents (and their public pages) and frontends.
import { z } from "zod";
import { deleteDocument, documentContent, INSTANCE_DOCUMENTS, showDocument, updateDocument } from "../../src/domain/documents/documents.ops.ts";
import { FrontendInstallError, installFrontend, installFrontendInput, listFrontends } from "../../src/domain/frontends/frontends.ops.ts";
import type { DomainError } from "../../src/kernel/errors.ts";
import { GuardedFetchError } from "../../src/net/guarded-fetch.ts";
import { route, type ErrorShape } from "../../src/http/routes/route.ts";
import { admin } from "./paths.ts";
import { DocumentUrlSchema, FrontendsSchema } from "../../src/views/schemas/tools.ts";

const name = z.object({ name: z.string() });

/** The family answers every failed installation with 400 `{error}`, whatever went wrong. */
const installFailed = (e: DomainError): ErrorShape | undefined =>
  e instanceof FrontendInstallError || (e instanceof GuardedFetchError && e.reason === "refused") ? { status: 400, body: { error: e.message } } : undefined;

export const adminDocumentFrontendRoutes = [
  route({
    method: "GET",
    path: admin("/instance_document/:name"),
    summary: "An instance document's HTML (the upload, or the built-in default)",
    produces: "text/html",
    tags: ["Admin: instance documents"],
    operation: showDocument,
    params: name,
    async handler(ctx, { params, res }) {
      res.type("text/html").send(await showDocument(ctx, params));
    },
  }),
  route({
    method: "PATCH",
    path: admin("/instance_document/:name"),
    view: DocumentUrlSchema,
    summary: "Replaces an instance document with the uploaded HTML file",
    tags: ["Admin: instance documents"],
    operation: updateDocument,
    params: name,
    files: ["file"],
    handler: (ctx, { params, files }) => updateDocument(ctx, { name: params.name, content: files.file?.[0]?.buffer }),
  }),
  route({
    method: "DELETE",
    path: admin("/instance_document/:name"),
    view: DocumentUrlSchema,
    summary: "Removes the uploaded document: the default is served again",
    tags: ["Admin: instance documents"],
    operation: deleteDocument,
    params: name,
    handler: (ctx, { params }) => deleteDocument(ctx, params),
  }),
  ...Object.entries(INSTANCE_DOCUMENTS).map(([document, served]) =>
    route({
      method: "GET",
      path: served,
      summary: `The ${document} document (public)`,
      produces: "text/html",
      tags: ["Instance"],
      auth: "public",
      async handler(ctx, { res }) {
        res.type("text/html").send(await documentContent(ctx, document));
      },
    }),
  ),
  route({
    method: "GET",
    path: admin("/frontends"),
    view: FrontendsSchema,
    summary: "The installable frontends and whether each is installed",
    tags: ["Admin: frontends"],
    operation: listFrontends,
    handler: (ctx) => listFrontends(ctx, {}),
  }),
  route({
    method: "POST",
    path: admin("/frontends/install"),
    view: FrontendsSchema,
    summary: "Installs a frontend from a zip file on the server or its build URL",
    tags: ["Admin: frontends"],
    operation: installFrontend,
    body: installFrontendInput,
    errors: installFailed,
    handler: (ctx, { body }) => installFrontend(ctx, body),
  }),
];
