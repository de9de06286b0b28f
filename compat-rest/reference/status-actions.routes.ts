// Reference API: actions on a status (favourite, reblog, bookmark, pin, thread mute and their undos),
// who favourited or reblogged it, its thread, editing it, its history and its source.
// Each route's auth is its operation's access: the family's scopes (pin and unpin take write:accounts there).
import { z } from "zod";
import type { Status } from "../../src/generated/prisma/client.ts";
import type { Ctx } from "../../src/domain/context.ts";
import {
  bookmarkStatus,
  favouritedBy,
  favouriteStatus,
  muteInput,
  muteThread,
  pinStatus,
  reblogInput,
  reblogStatus,
  rebloggedBy,
  statusAccountsInput,
  unbookmarkStatus,
  unfavouriteStatus,
  unmuteThread,
  unpinStatus,
  unreblogStatus,
} from "../../src/domain/statuses/actions.ops.ts";
import { statusContext } from "../../src/domain/statuses/context.ops.ts";
import { editInput, editStatus, statusHistory, statusSource, translateStatus } from "../../src/domain/statuses/edit.ops.ts";
import { pageSpecs } from "../../src/http/routes/page-cache.ts";
import { route, type RouteDef } from "../../src/http/routes/route.ts";
import type { AnyOperation } from "../../src/domain/operation.ts";
import { renderAccount, renderAccounts } from "../../src/views/account.ts";
import { renderStatus, renderStatuses } from "../../src/views/status.ts";
import { AccountSchema } from "../../src/views/schemas/account.ts";
import { StatusEditSchema, StatusSourceSchema } from "../../src/views/schemas/misc.ts";
import { ContextSchema, StatusSchema } from "../../src/views/schemas/status.ts";
import { listOf } from "../../src/views/schemas/view.ts";
import { renderStatusHistory } from "../../src/views/status-history.ts";

const idParam = z.object({ id: z.string() });
const noBody = z.object({});

/** POST /api/v1/statuses/:id/<action>, answering the Status entity. */
function action(
  name: string,
  summary: string,
  /** the operation, whose access is the route's */
  op: AnyOperation & ((ctx: Ctx, input: { id: string }) => Promise<Status>),
  body: z.ZodType<Record<string, unknown>> = noBody,
): RouteDef {
  return route({
    method: "POST",
    path: `/api/v1/statuses/:id/${name}`,
    view: StatusSchema,
    summary,
    tags: ["Statuses"],
    operation: op,
    params: idParam,
    body,
    response: { description: "the Status" },
    async handler(ctx, input) {
      return renderStatus(ctx, await op(ctx, { ...input.body, id: input.params.id }));
    },
  });
}

export const statusActionRoutes: RouteDef[] = [
  action("favourite", "Favourite a status (idempotent); notifies its author", favouriteStatus),
  action("unfavourite", "Remove the favourite", unfavouriteStatus),
  action(
    "reblog",
    "Reblog a status (idempotent); answers the reblog, whose `reblog` is the original; notifies its author",
    reblogStatus,
    reblogInput.omit({ id: true }),
  ),
  action("unreblog", "Remove the reblog; answers the original", unreblogStatus),
  action("bookmark", "Bookmark a status; `folder_id` puts (or moves) the bookmark into one of the viewer's bookmark folders", bookmarkStatus, bookmarkStatus.input.omit({ id: true })),
  action("unbookmark", "Remove the bookmark", unbookmarkStatus),
  action("pin", "Pin an own public or unlisted status to the profile (up to max_pinned_statuses)", pinStatus),
  action("unpin", "Unpin a status", unpinStatus),
  action(
    "mute",
    "Mute the status's thread (notifications from it stop), for expires_in seconds when given",
    muteThread,
    muteInput.omit({ id: true }),
  ),
  action("unmute", "Unmute the status's thread", unmuteThread),

  ...(
    [
      ["favourited_by", "Accounts that favourited a status, newest first", favouritedBy],
      ["reblogged_by", "Accounts that reblogged a status (reblogs the viewer may see), newest first", rebloggedBy],
    ] as const
  ).map(([name, summary, op]) =>
    route({
      method: "GET",
      path: `/api/v1/statuses/:id/${name}`,
      view: listOf(AccountSchema),
      summary,
      tags: ["Statuses"],
      operation: op,
      params: idParam,
      query: statusAccountsInput.omit({ id: true }),
      paged: "id",
      async handler(ctx, { params, query }) {
        const page = await op(ctx, { ...query, id: params.id });
        return { ...page, items: await renderAccounts(ctx, page.items) };
      },
    }),
  ),

  route({
    method: "GET",
    path: "/api/v1/statuses/:id/context",
    view: ContextSchema,
    summary: "The thread around a status: ancestors (oldest first) and descendants (depth-first), only what the viewer may see",
    tags: ["Statuses"],
    operation: statusContext,
    params: idParam,
    pageCache: (_ctx, { params }) => pageSpecs.context(params),
    async handler(ctx, { params }) {
      const { ancestors, descendants } = await statusContext(ctx, params);
      const rendered = await renderStatuses(ctx, [...ancestors, ...descendants]); // one batch for both lists
      return { ancestors: rendered.slice(0, ancestors.length), descendants: rendered.slice(ancestors.length) };
    },
  }),

  route({
    method: "PUT",
    path: "/api/v1/statuses/:id",
    view: StatusSchema,
    rateLimit: "statuses_actions",
    summary: "Edit an own status (text, content warning, sensitivity, media, content type, language); the old version goes to its history",
    tags: ["Statuses"],
    operation: editStatus,
    params: idParam,
    body: editInput.omit({ id: true }),
    async handler(ctx, { params, body }) {
      return renderStatus(ctx, await editStatus(ctx, { ...body, id: params.id }));
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/statuses/:id/history",
    view: listOf(StatusEditSchema),
    summary: "Every version of a status, oldest first, the current one last",
    tags: ["Statuses"],
    operation: statusHistory,
    params: idParam,
    async handler(ctx, { params }) {
      const history = await statusHistory(ctx, params);
      return renderStatusHistory(ctx, history, await renderAccount(ctx, history.account));
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/statuses/:id/source",
    view: StatusSourceSchema,
    summary: "The text of a status as typed, with its content warning and content type",
    tags: ["Statuses"],
    operation: statusSource,
    params: idParam,
    async handler(ctx, { params }) {
      const source = await statusSource(ctx, params);
      return { id: source.id, text: source.text, spoiler_text: source.spoilerText, content_type: source.contentType };
    },
  }),
  route({
    method: "POST",
    path: "/api/v1/statuses/:id/translate",
    summary: "Translate a status: no translation backend is configured, so 404 (the reference server's answer without one)",
    tags: ["Statuses"],
    operation: translateStatus,
    params: idParam,
    body: translateStatus.input.omit({ id: true }),
    response: { description: "404 `{error}`: no translation backend (or the status is not visible)" },
    handler: (ctx, { params, body }) => translateStatus(ctx, { ...body, id: params.id }),
  }),
];
