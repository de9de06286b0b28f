// Reference API conversations (direct messages) and the family's own conversation endpoints.
// A conversation's id is the Conversation id, the `<ns>.direct_conversation_id` of its statuses.
import { z } from "zod";
import { conversationStatuses, deleteConversation, listConversations, readAllConversations, readConversation, showConversation, updateConversationRecipients } from "../../src/domain/conversations/conversations.ops.ts";
import { array } from "../../src/domain/inputs.ts";
import { pageInput } from "../../src/domain/pagination.ts";
import { route } from "../../src/http/routes/route.ts";
import { renderStatuses } from "../../src/views/status.ts";
import { EmptySchema } from "../../src/views/schemas/misc.ts";
import { ConversationSchema } from "../../src/views/schemas/notification.ts";
import { StatusListSchema } from "../../src/views/schemas/status.ts";
import { listOf } from "../../src/views/schemas/view.ts";
import { renderConversations, renderConversation } from "../../src/views/conversation.ts";

const idParam = z.object({ id: z.string() });
const tags = ["Conversations"];

export const conversationRoutes = [
  route({
    method: "GET",
    path: "/api/v1/conversations",
    view: listOf(ConversationSchema),
    summary: "The viewer's direct conversations, most recently active first",
    tags,
    operation: listConversations,
    query: pageInput.extend({ recipients: array(z.string()).optional() }),
    paged: "id",
    async handler(ctx, input) {
      const page = await listConversations(ctx, input.query);
      return { ...page, items: await renderConversations(ctx, page.items) };
    },
  }),
  route({
    method: "DELETE",
    path: "/api/v1/conversations/:id",
    view: EmptySchema,
    summary: "Remove the conversation from the viewer's list",
    tags,
    operation: deleteConversation,
    params: idParam,
    async handler(ctx, input) {
      return deleteConversation(ctx, input.params);
    },
  }),
  route({
    method: "POST",
    path: "/api/v1/conversations/:id/read",
    view: ConversationSchema,
    summary: "Mark a conversation read",
    tags,
    operation: readConversation,
    params: idParam,
    async handler(ctx, input) {
      return renderConversation(ctx, await readConversation(ctx, input.params));
    },
  }),
  // own API; the fixed path comes before /:id
  route({
    method: "POST",
    path: "/api/v1/$ns/conversations/read",
    view: listOf(ConversationSchema),
    summary: "Mark every conversation read; answers the conversations that were unread",
    tags,
    operation: readAllConversations,
    async handler(ctx) {
      return renderConversations(ctx, await readAllConversations(ctx, {}));
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/$ns/conversations/:id/statuses",
    view: StatusListSchema,
    summary: "Statuses of a conversation, newest first",
    tags,
    operation: conversationStatuses,
    params: idParam,
    query: pageInput,
    paged: "id",
    async handler(ctx, input) {
      const page = await conversationStatuses(ctx, { ...input.query, id: input.params.id });
      return { ...page, items: await renderStatuses(ctx, page.items) };
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/$ns/conversations/:id",
    view: ConversationSchema,
    summary: "One conversation of the viewer",
    tags,
    operation: showConversation,
    params: idParam,
    async handler(ctx, input) {
      return renderConversation(ctx, await showConversation(ctx, input.params));
    },
  }),
  route({
    method: "PATCH",
    path: "/api/v1/$ns/conversations/:id",
    view: ConversationSchema,
    summary: "Replace the recipients of the viewer's replies in this conversation (the viewer always stays)",
    tags,
    operation: updateConversationRecipients,
    params: idParam,
    body: z.object({ recipients: array(z.string()).optional() }),
    query: z.object({ recipients: array(z.string()).optional() }),
    async handler(ctx, input) {
      const recipients = input.body.recipients ?? input.query.recipients ?? [];
      return renderConversation(ctx, await updateConversationRecipients(ctx, { id: input.params.id, recipients }));
    },
  }),
];
