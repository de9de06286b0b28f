// OAuth apps: list (by name), create (optionally trusted), toggle trust, delete with its tokens (confirmed).
import { useState } from "react";
import { useMutation, useQuery } from "urql";
import { graphql } from "../graphql.ts";
import { ActionList } from "../components/ActionList.tsx";
import { ErrorBox, Loading, usePager } from "../ui.tsx";

const List = graphql(`query OAuthApps($first: Int, $after: String, $name: String) { adminOAuthApps(first: $first, after: $after, name: $name) { totalCount pageInfo { hasNextPage endCursor } edges { node { id name clientId redirectUris scopes trusted website } } } }`);
const Create = graphql(`mutation CreateApp($name: String!, $redirectUris: [String!]!, $scopes: [String!], $trusted: Boolean) { createOAuthApp(name: $name, redirectUris: $redirectUris, scopes: $scopes, trusted: $trusted) { id clientId clientSecret } }`);
const Update = graphql(`mutation TrustApp($id: Int!, $trusted: Boolean) { updateOAuthApp(id: $id, trusted: $trusted) { id trusted } }`);
const Delete = graphql(`mutation DeleteApp($id: Int!) { deleteOAuthApp(id: $id) }`);

export function OAuthApps() {
  const pager = usePager(50);
  const [name, setName] = useState("");
  const [{ data, error, fetching }, refetch] = useQuery({ query: List, variables: { ...pager.variables, name: name || null } });
  const [created, create] = useMutation(Create);
  const [updated, update] = useMutation(Update);
  const [, remove] = useMutation(Delete);
  const [form, setForm] = useState({ name: "", redirect: "urn:ietf:wg:oauth:2.0:oob", scopes: "read write follow push", trusted: false });
  const apps = data?.adminOAuthApps.edges.map((e) => e.node) ?? [];
  return (
    <>
      <h1>OAuth apps</h1>
      <ErrorBox error={error ?? created.error ?? updated.error} />
      <form
        className="row"
        onSubmit={async (e) => {
          e.preventDefault();
          const r = await create({ name: form.name, redirectUris: form.redirect.split(/\s+/).filter(Boolean), scopes: form.scopes.split(/\s+/).filter(Boolean), trusted: form.trusted });
          if (!r.error) refetch();
        }}
      >
        <label>
          Name
          <input required value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
        </label>
        <label>
          Redirect URIs
          <input required value={form.redirect} onChange={(e) => setForm({ ...form, redirect: e.target.value })} />
        </label>
        <label>
          Scopes
          <input value={form.scopes} onChange={(e) => setForm({ ...form, scopes: e.target.value })} />
        </label>
        <label className="check">
          <input type="checkbox" checked={form.trusted} onChange={(e) => setForm({ ...form, trusted: e.target.checked })} /> Trusted
        </label>
        <button type="submit">Create app</button>
      </form>
      {created.data && (
        <p role="status">
          Client id <code>{created.data.createOAuthApp.clientId}</code>, secret <code>{created.data.createOAuthApp.clientSecret}</code>
        </p>
      )}
      <label>
        Exact name
        <input type="search" value={name} onChange={(e) => (pager.reset(), setName(e.target.value))} />
      </label>
      {fetching && !data && <Loading />}
      {data && (
        <ActionList
          items={apps}
          itemKey={(a) => String(a.id)}
          caption="OAuth apps"
          empty="No apps."
          columns={[
            { header: "Name", cell: (a) => a.name },
            { header: "Client id", cell: (a) => <code>{a.clientId}</code> },
            { header: "Scopes", cell: (a) => a.scopes.join(" ") },
            {
              header: "Trusted",
              cell: (a) => <input type="checkbox" aria-label={`${a.name} is trusted`} checked={a.trusted} onChange={(e) => void update({ id: a.id, trusted: e.target.checked }).then(() => refetch())} />,
            },
          ]}
          actions={(a) => [{ label: "Delete", danger: true, confirm: `Delete ${a.name} and every token it issued?`, run: () => remove({ id: a.id }) }]}
          onDone={refetch}
        />
      )}
      {data && pager.controls(data.adminOAuthApps.pageInfo, data.adminOAuthApps.totalCount)}
    </>
  );
}
