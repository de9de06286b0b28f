// Users: search, the admin API's filters, pages, bulk actions (each confirmed), and sign-ups as they
// happen (the `userRegistered` subscription refreshes the first page).
import { useEffect, useState } from "react";
import { Link } from "wouter";
import { useMutation, useQuery, useSubscription } from "urql";
import { useRefetchOnModeration } from "../live.ts";
import { graphql } from "../graphql.ts";
import { ConfirmButton, Empty, ErrorBox, Loading, usePager } from "../ui.tsx";

const FILTERS = [
  ["local", "Local"],
  ["external", "External"],
  ["active", "Active"],
  ["deactivated", "Deactivated"],
  ["need_approval", "Awaiting approval"],
  ["unconfirmed", "Unconfirmed"],
  ["is_admin", "Admins"],
  ["is_moderator", "Moderators"],
] as const;

const UsersQuery = graphql(`
  query Users($first: Int, $after: String, $query: String, $filters: [String!]) {
    adminUsers(first: $first, after: $after, query: $query, filters: $filters) {
      totalCount
      pageInfo { hasNextPage endCursor }
      edges { node { id nickname displayName email local deactivated isAdmin isModerator approvalPending confirmationPending tags } }
    }
  }
`);

const Registered = graphql(`subscription Registered { userRegistered { id nickname } }`);

const Activate = graphql(`mutation Activate($nicknames: [String!]!) { adminActivateUsers(nicknames: $nicknames) { id deactivated } }`);
const Deactivate = graphql(`mutation Deactivate($nicknames: [String!]!) { adminDeactivateUsers(nicknames: $nicknames) { id deactivated } }`);
const Approve = graphql(`mutation Approve($nicknames: [String!]!) { adminApproveUsers(nicknames: $nicknames) { id approvalPending } }`);
const Confirm = graphql(`mutation ConfirmEmail($nicknames: [String!]!) { adminConfirmEmail(nicknames: $nicknames) { id confirmationPending } }`);
const Tag = graphql(`mutation TagUsers($nicknames: [String!]!, $tags: [String!]!) { adminTagUsers(nicknames: $nicknames, tags: $tags) { id tags } }`);
const Untag = graphql(`mutation UntagUsers($nicknames: [String!]!, $tags: [String!]!) { adminUntagUsers(nicknames: $nicknames, tags: $tags) { id tags } }`);
const Grant = graphql(`mutation GrantRole($nicknames: [String!]!, $group: AdminPermissionGroup!) { adminGrantPermission(nicknames: $nicknames, group: $group) { id isAdmin isModerator } }`);
const RevokeRole = graphql(`mutation RevokeRole($nicknames: [String!]!, $group: AdminPermissionGroup!) { adminRevokePermission(nicknames: $nicknames, group: $group) { id isAdmin isModerator } }`);
const Delete = graphql(`mutation DeleteUsers($nicknames: [String!]!) { adminDeleteUsers(nicknames: $nicknames) { id } }`);

export function Users() {
  const pager = usePager(25);
  const [search, setSearch] = useState("");
  const [query, setQuery] = useState("");
  const [filters, setFilters] = useState<string[]>([]);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [{ data, error, fetching }, refetch] = useQuery({ query: UsersQuery, variables: { ...pager.variables, query: query || null, filters } });
  useRefetchOnModeration(refetch);
  const [live] = useSubscription({ query: Registered });
  const [newest, setNewest] = useState<string | null>(null);
  useEffect(() => {
    if (!live.data) return;
    setNewest(live.data.userRegistered.nickname);
    refetch();
  }, [live.data]); // on each new event only

  const [activate, runActivate] = useMutation(Activate);
  const [deactivate, runDeactivate] = useMutation(Deactivate);
  const [approve, runApprove] = useMutation(Approve);
  const [confirm, runConfirm] = useMutation(Confirm);
  const [del, runDelete] = useMutation(Delete);
  const [tag, runTag] = useMutation(Tag);
  const [untag, runUntag] = useMutation(Untag);
  const [grant, runGrant] = useMutation(Grant);
  const [revoke, runRevoke] = useMutation(RevokeRole);
  const [tagName, setTagName] = useState("");
  const [role, setRole] = useState<"moderator" | "admin">("moderator");
  const actionError = activate.error ?? deactivate.error ?? approve.error ?? confirm.error ?? del.error ?? tag.error ?? untag.error ?? grant.error ?? revoke.error;

  const nicknames = [...selected];
  const bulk = async (run: (v: { nicknames: string[] }) => Promise<unknown>) => {
    await run({ nicknames });
    setSelected(new Set());
    refetch();
  };
  const bulkWith = async <V,>(run: (v: { nicknames: string[] } & V) => Promise<unknown>, extra: V) => {
    await run({ nicknames, ...extra });
    setSelected(new Set());
    refetch();
  };
  const toggle = (nickname: string) => {
    const next = new Set(selected);
    if (next.has(nickname)) next.delete(nickname);
    else next.add(nickname);
    setSelected(next);
  };
  const users = data?.adminUsers.edges.map((e) => e.node) ?? [];

  return (
    <>
      <h1>Users</h1>
      {newest && (
        <p role="status" className="notice">
          New sign-up: @{newest}
        </p>
      )}
      <form
        className="filters"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          pager.reset();
          setQuery(search);
        }}
      >
        <label>
          Search
          <input type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder="nickname, domain, name or e-mail" />
        </label>
        <button type="submit">Search</button>
        <fieldset>
          <legend>Filters</legend>
          {FILTERS.map(([value, label]) => (
            <label key={value} className="check">
              <input
                type="checkbox"
                checked={filters.includes(value)}
                onChange={(e) => {
                  pager.reset();
                  setFilters(e.target.checked ? [...filters, value] : filters.filter((f) => f !== value));
                }}
              />
              {label}
            </label>
          ))}
        </fieldset>
      </form>
      <div className="toolbar" aria-label="Actions on the selected users" role="group">
        <span>{selected.size} selected</span>
        <ConfirmButton disabled={!selected.size} label="Activate" question={`Activate ${nicknames.join(", ")}?`} onConfirm={() => bulk(runActivate)} />
        <ConfirmButton disabled={!selected.size} label="Deactivate" danger question={`Deactivate ${nicknames.join(", ")}? They will not be able to sign in.`} onConfirm={() => bulk(runDeactivate)} />
        <ConfirmButton disabled={!selected.size} label="Approve" question={`Approve ${nicknames.join(", ")}?`} onConfirm={() => bulk(runApprove)} />
        <ConfirmButton disabled={!selected.size} label="Confirm e-mail" question={`Confirm the e-mail of ${nicknames.join(", ")}?`} onConfirm={() => bulk(runConfirm)} />
        <ConfirmButton disabled={!selected.size} label="Delete" danger question={`Delete ${nicknames.join(", ")} and all their content? This cannot be undone.`} onConfirm={() => bulk(runDelete)} />
      </div>
      <div className="toolbar" aria-label="Tags and roles of the selected users" role="group">
        <label>
          Tag
          <input value={tagName} onChange={(e) => setTagName(e.target.value)} placeholder="e.g. mrf_tag:media-strip" />
        </label>
        <ConfirmButton disabled={!selected.size || !tagName.trim()} label="Add tag" question={`Tag ${nicknames.join(", ")} with ${tagName.trim()}?`} onConfirm={() => bulkWith(runTag, { tags: [tagName.trim()] })} />
        <ConfirmButton disabled={!selected.size || !tagName.trim()} label="Remove tag" danger question={`Remove the tag ${tagName.trim()} from ${nicknames.join(", ")}?`} onConfirm={() => bulkWith(runUntag, { tags: [tagName.trim()] })} />
        <label>
          Role
          <select aria-label="Role" value={role} onChange={(e) => setRole(e.target.value as "moderator" | "admin")}>
            <option value="moderator">moderator</option>
            <option value="admin">admin</option>
          </select>
        </label>
        <ConfirmButton disabled={!selected.size} label="Grant role" question={`Make ${nicknames.join(", ")} ${role}?`} onConfirm={() => bulkWith(runGrant, { group: role })} />
        <ConfirmButton disabled={!selected.size} label="Revoke role" danger question={`Revoke ${role} from ${nicknames.join(", ")}?`} onConfirm={() => bulkWith(runRevoke, { group: role })} />
      </div>
      <ErrorBox error={error ?? actionError ?? live.error} />
      {fetching && !data && <Loading />}
      {data &&
        (users.length === 0 ? (
          <Empty>No users match.</Empty>
        ) : (
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">Users</caption>
              <thead>
                <tr>
                  <th scope="col">
                    <span className="visually-hidden">Select</span>
                  </th>
                  <th scope="col">User</th>
                  <th scope="col">E-mail</th>
                  <th scope="col">State</th>
                  <th scope="col">Roles</th>
                  <th scope="col">Tags</th>
                </tr>
              </thead>
              <tbody>
                {users.map((u) => (
                  <tr key={u.id}>
                    <td>
                      <input type="checkbox" aria-label={`Select @${u.nickname}`} checked={selected.has(u.nickname)} onChange={() => toggle(u.nickname)} />
                    </td>
                    <td>
                      <Link href={`/users/${encodeURIComponent(u.nickname)}`}>@{u.nickname}</Link> <span className="muted">{u.displayName}</span>
                    </td>
                    <td>{u.email ?? ""}</td>
                    <td>
                      {u.deactivated ? "deactivated" : "active"}
                      {u.approvalPending ? ", awaiting approval" : ""}
                      {u.confirmationPending ? ", unconfirmed" : ""}
                      {u.local ? "" : ", remote"}
                    </td>
                    <td>{[u.isAdmin && "admin", u.isModerator && "moderator"].filter(Boolean).join(", ")}</td>
                    <td>{u.tags.join(", ")}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ))}
      {data && pager.controls(data.adminUsers.pageInfo, data.adminUsers.totalCount)}
    </>
  );
}
