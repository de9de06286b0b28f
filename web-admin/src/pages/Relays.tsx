// Relays: the followed relays, follow one by its actor URL, unfollow (confirmed).
import { useState } from "react";
import { useMutation, useQuery } from "urql";
import { graphql } from "../graphql.ts";
import { ActionList } from "../components/ActionList.tsx";
import { ErrorBox, Loading } from "../ui.tsx";

const RelaysQuery = graphql(`query Relays { adminRelays { actor state followedBack } }`);
const Follow = graphql(`mutation FollowRelay($relayUrl: String!) { followRelay(relayUrl: $relayUrl) { actor } }`);
const Unfollow = graphql(`mutation UnfollowRelay($relayUrl: String!, $force: Boolean) { unfollowRelay(relayUrl: $relayUrl, force: $force) }`);

export function Relays() {
  const [{ data, error, fetching }, refetch] = useQuery({ query: RelaysQuery });
  const [followed, follow] = useMutation(Follow);
  const [, unfollow] = useMutation(Unfollow);
  const [url, setUrl] = useState("");
  return (
    <>
      <h1>Relays</h1>
      <ErrorBox error={error ?? followed.error} />
      <form
        className="row"
        onSubmit={async (e) => {
          e.preventDefault();
          const r = await follow({ relayUrl: url });
          if (!r.error) {
            setUrl("");
            refetch();
          }
        }}
      >
        <label>
          Relay actor URL
          <input type="url" required value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://relay.example/actor" />
        </label>
        <button type="submit">Follow</button>
      </form>
      {fetching && !data && <Loading />}
      {data && (
        <ActionList
          items={data.adminRelays}
          itemKey={(r) => r.actor}
          caption="Followed relays"
          empty="No relays followed."
          render={(r) => (
            <>
              {r.actor} <span className="muted">({r.state}{r.followedBack ? ", follows back" : ""})</span>
            </>
          )}
          actions={(r) => [{ label: "Unfollow", danger: true, confirm: `Unfollow ${r.actor}?`, run: () => unfollow({ relayUrl: r.actor }) }]}
          onDone={refetch}
        />
      )}
    </>
  );
}
