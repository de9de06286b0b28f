// Media-proxy bans: the banned URLs (searchable), purge and ban URLs, lift bans (confirmed).
import { useState } from "react";
import { useMutation, useQuery } from "urql";
import { graphql } from "../graphql.ts";
import { ActionList } from "../components/ActionList.tsx";
import { ConfirmButton, ErrorBox, Loading, usePager } from "../ui.tsx";

const List = graphql(`query MediaProxyBans($first: Int, $after: String, $query: String) { mediaProxyBans(first: $first, after: $after, query: $query) { totalCount pageInfo { hasNextPage endCursor } edges { node } } }`);
const Purge = graphql(`mutation PurgeUrls($urls: [String!]!, $ban: Boolean) { purgeMediaProxyUrls(urls: $urls, ban: $ban) }`);
const Unban = graphql(`mutation UnbanUrls($urls: [String!]!) { unbanMediaProxyUrls(urls: $urls) }`);

export function MediaProxy() {
  const pager = usePager(50);
  const [query, setQuery] = useState("");
  const [{ data, error, fetching }, refetch] = useQuery({ query: List, variables: { ...pager.variables, query: query || null } });
  const [purged, purge] = useMutation(Purge);
  const [, unban] = useMutation(Unban);
  const [urls, setUrls] = useState("");
  const [ban, setBan] = useState(true);
  const list = urls.split(/\s+/).filter(Boolean);
  const bans = data?.mediaProxyBans.edges.map((e) => e.node) ?? [];
  return (
    <>
      <h1>Media-proxy bans</h1>
      <ErrorBox error={error ?? purged.error} />
      <form className="stack" onSubmit={(e) => e.preventDefault()}>
        <label>
          URLs (one per line)
          <textarea rows={3} value={urls} onChange={(e) => setUrls(e.target.value)} />
        </label>
        <label className="check">
          <input type="checkbox" checked={ban} onChange={(e) => setBan(e.target.checked)} /> Ban them too
        </label>
        <ConfirmButton
          label="Purge"
          danger
          disabled={list.length === 0}
          question={`Purge ${list.length} URL(s) from the media-proxy cache${ban ? " and ban them" : ""}?`}
          onConfirm={() => purge({ urls: list, ban }).then((r) => (r.error ? undefined : (setUrls(""), refetch())))}
        />
      </form>
      <label>
        Search
        <input type="search" value={query} onChange={(e) => (pager.reset(), setQuery(e.target.value))} />
      </label>
      {fetching && !data && <Loading />}
      {data && (
        <ActionList
          items={bans}
          itemKey={(url) => url}
          caption="Banned URLs"
          empty="No banned URLs."
          render={(url) => <code>{url}</code>}
          actions={(url) => [{ label: "Lift ban", confirm: `Lift the ban of ${url}?`, run: () => unban({ urls: [url] }) }]}
          onDone={refetch}
        />
      )}
      {data && pager.controls(data.mediaProxyBans.pageInfo, data.mediaProxyBans.totalCount)}
    </>
  );
}
