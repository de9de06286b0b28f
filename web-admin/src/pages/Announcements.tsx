// Announcements: every announcement, create, edit, delete (confirmed).
import { useState } from "react";
import { useMutation, useQuery } from "urql";
import { graphql } from "../graphql.ts";
import { ConfirmButton, Empty, ErrorBox, formatDate, Loading } from "../ui.tsx";

const List = graphql(`query Announcements { adminAnnouncements(first: 100) { edges { node { id rawContent startsAt endsAt allDay publishedAt } } } }`);
const Create = graphql(`mutation CreateAnnouncement($content: String!, $startsAt: DateTime, $endsAt: DateTime, $allDay: Boolean) { createAnnouncement(content: $content, startsAt: $startsAt, endsAt: $endsAt, allDay: $allDay) { id } }`);
const Update = graphql(`mutation UpdateAnnouncement($id: ID!, $content: String) { updateAnnouncement(id: $id, content: $content) { id rawContent } }`);
const Delete = graphql(`mutation DeleteAnnouncement($id: ID!) { deleteAnnouncement(id: $id) }`);

const isoOrNull = (local: string) => (local ? new Date(local).toISOString() : null);

export function Announcements() {
  const [{ data, error, fetching }, refetch] = useQuery({ query: List });
  const [created, create] = useMutation(Create);
  const [updated, update] = useMutation(Update);
  const [deleted, remove] = useMutation(Delete);
  const [form, setForm] = useState({ content: "", startsAt: "", endsAt: "", allDay: false });
  const [editing, setEditing] = useState<{ id: string; content: string } | null>(null);
  const items = data?.adminAnnouncements.edges.map((e) => e.node) ?? [];

  return (
    <>
      <h1>Announcements</h1>
      <ErrorBox error={error ?? created.error ?? updated.error ?? deleted.error} />
      <form
        className="stack"
        onSubmit={async (e) => {
          e.preventDefault();
          const r = await create({ content: form.content, startsAt: isoOrNull(form.startsAt), endsAt: isoOrNull(form.endsAt), allDay: form.allDay });
          if (!r.error) {
            setForm({ content: "", startsAt: "", endsAt: "", allDay: false });
            refetch();
          }
        }}
      >
        <h2>New announcement</h2>
        <label>
          Text
          <textarea required rows={3} value={form.content} onChange={(e) => setForm({ ...form, content: e.target.value })} />
        </label>
        <div className="row">
          <label>
            Starts
            <input type="datetime-local" value={form.startsAt} onChange={(e) => setForm({ ...form, startsAt: e.target.value })} />
          </label>
          <label>
            Ends
            <input type="datetime-local" value={form.endsAt} onChange={(e) => setForm({ ...form, endsAt: e.target.value })} />
          </label>
          <label className="check">
            <input type="checkbox" checked={form.allDay} onChange={(e) => setForm({ ...form, allDay: e.target.checked })} /> All day
          </label>
        </div>
        <button type="submit">Publish</button>
      </form>
      <h2>All announcements</h2>
      {fetching && !data && <Loading />}
      {data && items.length === 0 && <Empty>No announcements.</Empty>}
      <ul className="statuses">
        {items.map((a) => (
          <li key={a.id}>
            <span className="muted">
              published {formatDate(a.publishedAt)}
              {a.startsAt ? ` · from ${formatDate(a.startsAt)}` : ""}
              {a.endsAt ? ` · until ${formatDate(a.endsAt)}` : ""}
            </span>
            {editing?.id === a.id ? (
              <form
                className="row"
                onSubmit={async (e) => {
                  e.preventDefault();
                  const r = await update({ id: a.id, content: editing.content });
                  if (!r.error) setEditing(null);
                }}
              >
                <label>
                  Text
                  <textarea rows={3} value={editing.content} onChange={(e) => setEditing({ ...editing, content: e.target.value })} />
                </label>
                <button type="submit">Save</button>
                <button type="button" onClick={() => setEditing(null)}>
                  Cancel
                </button>
              </form>
            ) : (
              <>
                <p>{a.rawContent}</p>
                <div className="toolbar">
                  <button type="button" onClick={() => setEditing({ id: a.id, content: a.rawContent })}>
                    Edit
                  </button>
                  <ConfirmButton label="Delete" danger question="Delete this announcement?" onConfirm={() => remove({ id: a.id }).then(() => refetch())} />
                </div>
              </>
            )}
          </li>
        ))}
      </ul>
    </>
  );
}
