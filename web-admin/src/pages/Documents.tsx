// Instance documents: the instance panel and the terms of service, edited as HTML; removing the upload
// brings the built-in default back (confirmed).
import { useEffect, useState } from "react";
import { useMutation, useQuery } from "urql";
import { graphql } from "../graphql.ts";
import { ConfirmButton, ErrorBox, Loading } from "../ui.tsx";

const DOCUMENTS = [
  ["instance-panel", "Instance panel"],
  ["terms-of-service", "Terms of service"],
] as const;

const Get = graphql(`query InstanceDocument($name: String!) { instanceDocument(name: $name) }`);
const Save = graphql(`mutation SaveDocument($name: String!, $html: String!) { updateInstanceDocument(name: $name, html: $html) }`);
const Reset = graphql(`mutation ResetDocument($name: String!) { deleteInstanceDocument(name: $name) }`);

function DocumentEditor({ name, label }: { name: string; label: string }) {
  const [{ data, error, fetching }, refetch] = useQuery({ query: Get, variables: { name } });
  const [saved, save] = useMutation(Save);
  const [reset, runReset] = useMutation(Reset);
  const [html, setHtml] = useState("");
  const [message, setMessage] = useState<string | null>(null);
  useEffect(() => {
    if (data) setHtml(data.instanceDocument);
  }, [data]);
  const id = `doc-${name}`;
  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{label}</h2>
      <ErrorBox error={error ?? saved.error ?? reset.error} />
      {message && <p role="status">{message}</p>}
      {fetching && !data && <Loading />}
      <form
        className="stack"
        onSubmit={async (e) => {
          e.preventDefault();
          const r = await save({ name, html });
          if (!r.error) setMessage("Saved.");
        }}
      >
        <label htmlFor={id}>HTML</label>
        <textarea id={id} rows={8} value={html} onChange={(e) => setHtml(e.target.value)} />
        <div className="toolbar">
          <button type="submit">Save</button>
          <ConfirmButton label="Restore the default" danger question={`Remove the uploaded ${label.toLowerCase()} and serve the default?`} onConfirm={() => runReset({ name }).then(() => (setMessage("The default is served again."), refetch()))} />
        </div>
      </form>
    </section>
  );
}

export function Documents() {
  return (
    <>
      <h1>Instance documents</h1>
      {DOCUMENTS.map(([name, label]) => (
        <DocumentEditor key={name} name={name} label={label} />
      ))}
    </>
  );
}
