// Instance rules (shown to people signing up and in the instance information): create, edit, delete
// (confirmed), ordered by priority.
import { useState } from "react";
import { useMutation, useQuery } from "urql";
import { ActionList } from "../components/ActionList.tsx";
import { graphql } from "../graphql.ts";
import { ErrorBox, Loading } from "../ui.tsx";

const RulesQuery = graphql(`query Rules { adminRules { id text hint priority } }`);
const Create = graphql(`mutation CreateRule($text: String!, $hint: String, $priority: Int) { createRule(text: $text, hint: $hint, priority: $priority) { id } }`);
const Update = graphql(`mutation UpdateRule($id: ID!, $text: String, $hint: String, $priority: Int) { updateRule(id: $id, text: $text, hint: $hint, priority: $priority) { id text hint priority } }`);
const Delete = graphql(`mutation DeleteRule($id: ID!) { deleteRule(id: $id) }`);

type Draft = { text: string; hint: string; priority: string };
const empty: Draft = { text: "", hint: "", priority: "" };
const variables = (d: Draft) => ({ text: d.text, hint: d.hint, priority: d.priority === "" ? null : Number(d.priority) });

function RuleFields({ draft, onChange, prefix }: { draft: Draft; onChange: (d: Draft) => void; prefix: string }) {
  return (
    <>
      <label>
        {prefix}text
        <input required value={draft.text} onChange={(e) => onChange({ ...draft, text: e.target.value })} />
      </label>
      <label>
        {prefix}hint
        <input value={draft.hint} onChange={(e) => onChange({ ...draft, hint: e.target.value })} />
      </label>
      <label>
        {prefix}priority
        <input type="number" value={draft.priority} onChange={(e) => onChange({ ...draft, priority: e.target.value })} />
      </label>
    </>
  );
}

export function Rules() {
  const [{ data, error, fetching }, refetch] = useQuery({ query: RulesQuery });
  const [created, create] = useMutation(Create);
  const [updated, update] = useMutation(Update);
  const [, remove] = useMutation(Delete);
  const [draft, setDraft] = useState<Draft>(empty);
  const [editing, setEditing] = useState<({ id: string } & Draft) | null>(null);
  const rules = [...(data?.adminRules ?? [])].sort((a, b) => a.priority - b.priority);
  return (
    <>
      <h1>Rules</h1>
      <ErrorBox error={error ?? created.error ?? updated.error} />
      <form
        className="row"
        onSubmit={async (e) => {
          e.preventDefault();
          const r = await create(variables(draft));
          if (!r.error) (setDraft(empty), refetch());
        }}
      >
        <RuleFields draft={draft} onChange={setDraft} prefix="New rule: " />
        <button type="submit">Add rule</button>
      </form>
      {editing && (
        <form
          className="row"
          aria-label="Edit the rule"
          onSubmit={async (e) => {
            e.preventDefault();
            const r = await update({ id: editing.id, ...variables(editing) });
            if (!r.error) (setEditing(null), refetch());
          }}
        >
          <RuleFields draft={editing} onChange={(d) => setEditing({ ...editing, ...d })} prefix="Edited rule: " />
          <button type="submit">Save rule</button>
          <button type="button" onClick={() => setEditing(null)}>
            Cancel
          </button>
        </form>
      )}
      {fetching && !data && <Loading />}
      {data && (
        <ActionList
          items={rules}
          itemKey={(r) => r.id}
          caption="Rules"
          empty="No rules."
          columns={[
            { header: "Priority", cell: (r) => r.priority },
            { header: "Rule", cell: (r) => r.text },
            { header: "Hint", cell: (r) => r.hint },
          ]}
          actions={(r) => [
            { label: "Edit", ariaLabel: `Edit the rule ${r.text}`, run: async () => setEditing({ id: r.id, text: r.text, hint: r.hint, priority: String(r.priority) }) },
            { label: "Delete", danger: true, ariaLabel: `Delete the rule ${r.text}`, confirm: `Delete the rule "${r.text}"?`, run: () => remove({ id: r.id }) },
          ]}
          onDone={refetch}
        />
      )}
    </>
  );
}
