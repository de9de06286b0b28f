// The moderation log: text, date-range and acting-user filters, pages, and new entries as they are
// written. The acting user is typed as a nickname (staff matching it are suggested) and resolved to the
// account id the log is filtered by; an unknown nickname shows the server's "not found".
import { useEffect, useState } from "react";
import { useClient, useQuery, useSubscription } from "urql";
import { graphql } from "../graphql.ts";
import { Empty, ErrorBox, formatDate, Loading, usePager } from "../ui.tsx";

const LogQuery = graphql(`
  query ModerationLog($first: Int, $after: String, $search: String, $startDate: DateTime, $endDate: DateTime, $userId: ID) {
    moderationLog(first: $first, after: $after, search: $search, startDate: $startDate, endDate: $endDate, userId: $userId) {
      totalCount
      pageInfo { hasNextPage endCursor }
      edges { node { id action message createdAt actor { id nickname } } }
    }
  }
`);

const StaffSuggestions = graphql(`query StaffSuggestions($query: String) { adminUsers(first: 10, query: $query, filters: ["local"]) { edges { node { id nickname isAdmin isModerator } } } }`);
const UserId = graphql(`query ActingUserId($nickname: String!) { adminUser(nicknameOrId: $nickname) { id nickname } }`);

const LogAdded = graphql(`subscription LogAdded { moderationLogEntryAdded { id action message createdAt actor { id nickname } } }`);

export function ModerationLog() {
  const pager = usePager(50);
  const [filters, setFilters] = useState({ search: "", startDate: "", endDate: "", user: "" });
  const [applied, setApplied] = useState({ ...filters, userId: "" });
  const [userError, setUserError] = useState<Error | null>(null);
  const client = useClient();
  const typed = filters.user.trim().replace(/^@/, "");
  const [suggestions] = useQuery({ query: StaffSuggestions, variables: { query: typed }, pause: typed.length < 1 });
  const staff = (suggestions.data?.adminUsers.edges ?? []).map((e) => e.node).filter((u) => u.isAdmin || u.isModerator);
  const variables = {
    ...pager.variables,
    search: applied.search || null,
    startDate: applied.startDate ? new Date(applied.startDate).toISOString() : null,
    endDate: applied.endDate ? new Date(`${applied.endDate}T23:59:59`).toISOString() : null,
    userId: applied.userId || null,
  };
  const [{ data, error, fetching }, refetch] = useQuery({ query: LogQuery, variables });
  const [live] = useSubscription({ query: LogAdded });
  useEffect(() => {
    if (live.data && pager.page === 1) refetch();
  }, [live.data]); // on each new event only

  return (
    <>
      <h1>Moderation log</h1>
      <form
        className="filters"
        onSubmit={async (e) => {
          e.preventDefault();
          let userId = "";
          if (typed) {
            const r = await client.query(UserId, { nickname: typed }).toPromise();
            if (r.error || !r.data) return setUserError(r.error ?? new Error(`No user @${typed}`));
            userId = r.data.adminUser.id;
          }
          setUserError(null);
          pager.reset();
          setApplied({ ...filters, userId });
        }}
      >
        <label>
          Text
          <input type="search" value={filters.search} onChange={(e) => setFilters({ ...filters, search: e.target.value })} />
        </label>
        <label>
          From
          <input type="date" value={filters.startDate} onChange={(e) => setFilters({ ...filters, startDate: e.target.value })} />
        </label>
        <label>
          To
          <input type="date" value={filters.endDate} onChange={(e) => setFilters({ ...filters, endDate: e.target.value })} />
        </label>
        <label>
          Acting user (nickname)
          <input list="acting-staff" autoComplete="off" value={filters.user} onChange={(e) => setFilters({ ...filters, user: e.target.value })} />
        </label>
        <datalist id="acting-staff">
          {staff.map((u) => (
            <option key={u.id} value={u.nickname} />
          ))}
        </datalist>
        <button type="submit">Filter</button>
      </form>
      <ErrorBox error={userError ?? error ?? live.error} />
      {fetching && !data && <Loading />}
      {data &&
        (data.moderationLog.edges.length === 0 ? (
          <Empty>No entries match.</Empty>
        ) : (
          <ul className="log" aria-live="polite">
            {data.moderationLog.edges.map(({ node }) => (
              <li key={node.id}>
                <time dateTime={node.createdAt}>{formatDate(node.createdAt)}</time> {node.message}
              </li>
            ))}
          </ul>
        ))}
      {data && pager.controls(data.moderationLog.pageInfo, data.moderationLog.totalCount)}
    </>
  );
}
