// Remote instances known here: their accounts and statuses, delivery health (unreachable since, failures,
// suspended deliveries), a link to their statuses, and the purge of everything from one (confirmed).
import { useState } from "react";
import { Link } from "wouter";
import { useMutation, useQuery } from "urql";
import { ActionList } from "../components/ActionList.tsx";
import { graphql } from "../graphql.ts";
import { ErrorBox, formatDate, Loading, usePager } from "../ui.tsx";

const InstancesQuery = graphql(`
  query Instances($first: Int, $after: String, $unreachable: Boolean) {
    adminInstances(first: $first, after: $after, unreachable: $unreachable) {
      totalCount
      pageInfo { hasNextPage endCursor }
      edges { node { domain usersCount statusesCount softwareName softwareVersion unreachableSince failureCount deliverySuspended lastSuccessAt } }
    }
  }
`);
const Purge = graphql(`mutation PurgeInstance($instance: String!) { purgeInstance(instance: $instance) }`);

export function Instances() {
  const pager = usePager(50);
  const [unreachable, setUnreachable] = useState(false);
  const [{ data, error, fetching }, refetch] = useQuery({ query: InstancesQuery, variables: { ...pager.variables, unreachable: unreachable || null } });
  const [, purge] = useMutation(Purge);
  const [queued, setQueued] = useState<string | null>(null);
  const instances = data?.adminInstances.edges.map((e) => e.node) ?? [];
  return (
    <>
      <h1>Instances</h1>
      <label className="check">
        <input type="checkbox" checked={unreachable} onChange={(e) => (pager.reset(), setUnreachable(e.target.checked))} /> Unreachable only
      </label>
      <ErrorBox error={error} />
      {queued && <p role="status">The removal of everything from {queued} is queued.</p>}
      {fetching && !data && <Loading />}
      {data && (
        <ActionList
          items={instances}
          itemKey={(i) => i.domain}
          caption="Instances"
          empty={unreachable ? "No instance is unreachable." : "No other instance is known yet."}
          columns={[
            { header: "Instance", cell: (i) => <Link href={`/statuses?instance=${encodeURIComponent(i.domain)}`}>{i.domain}</Link> },
            { header: "Software", cell: (i) => [i.softwareName, i.softwareVersion].filter(Boolean).join(" ") || "—" },
            { header: "Accounts", cell: (i) => i.usersCount },
            { header: "Statuses", cell: (i) => i.statusesCount },
            {
              header: "Deliveries",
              cell: (i) =>
                i.unreachableSince
                  ? `unreachable since ${formatDate(i.unreachableSince)} (${i.failureCount} failures${i.deliverySuspended ? ", suspended" : ""})`
                  : i.lastSuccessAt
                    ? `ok, last ${formatDate(i.lastSuccessAt)}`
                    : "none yet",
            },
          ]}
          actions={(i) => [
            {
              label: "Purge",
              danger: true,
              ariaLabel: `Purge ${i.domain}`,
              confirm: `Remove every account of ${i.domain} and all their content from this server? This cannot be undone.`,
              run: async () => {
                const r = await purge({ instance: i.domain });
                if (!r.error) setQueued(i.domain);
                return r;
              },
            },
          ]}
          onDone={refetch}
        />
      )}
      {data && pager.controls(data.adminInstances.pageInfo, data.adminInstances.totalCount)}
    </>
  );
}
