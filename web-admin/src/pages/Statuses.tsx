// Statuses: the newest statuses (public and unlisted, or every visibility with godmode; local only if
// asked), or those of one instance; each with its moderation actions.
import { useState } from "react";
import { useQuery } from "urql";
import { useSearchParams } from "wouter";
import { StatusModeration } from "../components/StatusModeration.tsx";
import { graphql } from "../graphql.ts";
import { Empty, ErrorBox, Loading, usePager } from "../ui.tsx";

const Fields = graphql(`fragment ModeratedStatusFields on Status @_unmask { id content visibility sensitive createdAt account { nickname } }`);
const AllStatuses = graphql(
  `query AllStatuses($first: Int, $after: String, $godmode: Boolean, $localOnly: Boolean) {
    adminStatuses(first: $first, after: $after, godmode: $godmode, localOnly: $localOnly) { pageInfo { hasNextPage endCursor } edges { node { ...ModeratedStatusFields } } }
  }`,
  [Fields],
);
const InstanceStatuses = graphql(
  `query InstanceStatuses($instance: String!, $first: Int, $after: String, $godmode: Boolean) {
    adminInstanceStatuses(instance: $instance, first: $first, after: $after, godmode: $godmode) { pageInfo { hasNextPage endCursor } edges { node { ...ModeratedStatusFields } } }
  }`,
  [Fields],
);

export function Statuses() {
  const pager = usePager(20);
  // `?instance=host` (the Instances page links here)
  const [params] = useSearchParams();
  const [godmode, setGodmode] = useState(false);
  const [localOnly, setLocalOnly] = useState(false);
  const [instanceInput, setInstanceInput] = useState(params.get("instance") ?? "");
  const [instance, setInstance] = useState(params.get("instance") ?? "");
  const [all, refetchAll] = useQuery({ query: AllStatuses, variables: { ...pager.variables, godmode, localOnly }, pause: !!instance });
  const [one, refetchOne] = useQuery({ query: InstanceStatuses, variables: { ...pager.variables, godmode, instance }, pause: !instance });
  const result = instance ? one : all;
  const connection = instance ? one.data?.adminInstanceStatuses : all.data?.adminStatuses;
  const refetch = () => (instance ? refetchOne() : refetchAll());

  return (
    <>
      <h1>Statuses</h1>
      <form
        className="filters"
        onSubmit={(e) => {
          e.preventDefault();
          pager.reset();
          setInstance(instanceInput.trim());
        }}
      >
        <label>
          Instance (empty: all)
          <input value={instanceInput} onChange={(e) => setInstanceInput(e.target.value)} placeholder="example.com" />
        </label>
        <button type="submit">Show</button>
        <label className="check">
          <input type="checkbox" checked={godmode} onChange={(e) => (pager.reset(), setGodmode(e.target.checked))} /> Every visibility (godmode)
        </label>
        <label className="check">
          <input type="checkbox" checked={localOnly} disabled={!!instance} onChange={(e) => (pager.reset(), setLocalOnly(e.target.checked))} /> Local only
        </label>
      </form>
      <ErrorBox error={result.error} />
      {result.fetching && !connection && <Loading />}
      {connection &&
        (connection.edges.length === 0 ? (
          <Empty>No statuses.</Empty>
        ) : (
          <ul className="statuses">
            {connection.edges.map(({ node }) => (
              <StatusModeration key={node.id} status={node} onChange={refetch} />
            ))}
          </ul>
        ))}
      {connection && pager.controls(connection.pageInfo)}
    </>
  );
}
