// A user's chats (the admin API's chats of an account): each chat with the other side and its latest
// message; opening one pages through its messages, newest first, each deletable (confirmed) for both sides.
import { useState } from "react";
import { Link } from "wouter";
import { useMutation, useQuery } from "urql";
import { ActionList } from "../components/ActionList.tsx";
import { graphql } from "../graphql.ts";
import { htmlToText } from "../text.ts";
import { ErrorBox, formatDate, Loading, usePager } from "../ui.tsx";

const ChatsQuery = graphql(`
  query UserChats($nickname: String!) {
    adminUserChats(nickname: $nickname) { id updatedAt account { id nickname } lastMessage { id content createdAt } }
  }
`);
const MessagesQuery = graphql(`
  query ChatMessages($chatId: ID!, $first: Int, $after: String) {
    adminChatMessages(chatId: $chatId, first: $first, after: $after) {
      pageInfo { hasNextPage endCursor }
      edges { node { id content createdAt account { nickname } attachment { url description } } }
    }
  }
`);
const DeleteMessage = graphql(`mutation DeleteChatMessage($chatId: ID!, $messageId: ID!) { adminDeleteChatMessage(chatId: $chatId, messageId: $messageId) { id } }`);

const text = (html: string | null | undefined) => (html ? htmlToText(html) : "");

function Messages({ chatId, other }: { chatId: string; other: string }) {
  const pager = usePager(30);
  const [{ data, error, fetching }, refetch] = useQuery({ query: MessagesQuery, variables: { chatId, ...pager.variables } });
  const [, remove] = useMutation(DeleteMessage);
  const messages = data?.adminChatMessages.edges.map((e) => e.node) ?? [];
  return (
    <section aria-labelledby="messages">
      <h2 id="messages">Messages with @{other}</h2>
      <ErrorBox error={error} />
      {fetching && !data && <Loading />}
      {data && (
        <ActionList
          items={messages}
          itemKey={(m) => m.id}
          caption={`Messages with @${other}`}
          listClassName="statuses"
          empty="No messages."
          render={(m) => (
            <>
              <span className="muted">
                @{m.account?.nickname ?? "?"} · {formatDate(m.createdAt)}
              </span>
              <p>
                {text(m.content)}
                {m.attachment && (
                  <>
                    {" "}
                    <a href={m.attachment.url}>attachment{m.attachment.description ? `: ${m.attachment.description}` : ""}</a>
                  </>
                )}
              </p>
            </>
          )}
          actions={(m) => [{ label: "Delete message", danger: true, confirm: "Delete this message for both sides?", run: () => remove({ chatId, messageId: m.id }) }]}
          onDone={refetch}
        />
      )}
      {data && pager.controls(data.adminChatMessages.pageInfo)}
    </section>
  );
}

export function UserChats({ nickname }: { nickname: string }) {
  const [{ data, error, fetching }] = useQuery({ query: ChatsQuery, variables: { nickname } });
  const [open, setOpen] = useState<{ id: string; other: string } | null>(null);
  const chats = data?.adminUserChats ?? [];
  return (
    <>
      <p>
        <Link href={`/users/${encodeURIComponent(nickname)}`}>← @{nickname}</Link>
      </p>
      <h1>Chats of @{nickname}</h1>
      <ErrorBox error={error} />
      {fetching && !data && <Loading />}
      {data && (
        <ActionList
          items={chats}
          itemKey={(c) => c.id}
          caption={`Chats of @${nickname}`}
          empty={`@${nickname} has no chats.`}
          columns={[
            { header: "With", cell: (c) => `@${c.account.nickname}` },
            { header: "Latest message", cell: (c) => (c.lastMessage ? text(c.lastMessage.content) || "(attachment)" : "—") },
            { header: "Updated", cell: (c) => formatDate(c.updatedAt) },
          ]}
          actions={(c) => [{ label: open?.id === c.id ? "Shown below" : "Read", ariaLabel: `Read the chat with @${c.account.nickname}`, run: async () => setOpen({ id: c.id, other: c.account.nickname }) }]}
        />
      )}
      {open && <Messages key={open.id} chatId={open.id} other={open.other} />}
    </>
  );
}
