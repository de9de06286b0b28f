// Invites: generate (uses, expiry), send one by e-mail, revoke (confirmed).
import { useState } from "react";
import { useMutation, useQuery } from "urql";
import { graphql } from "../graphql.ts";
import { ActionList } from "../components/ActionList.tsx";
import { ErrorBox, Loading } from "../ui.tsx";

const InvitesQuery = graphql(`query Invites { adminInvites { id token inviteType maxUse uses used expiresAt } }`);
const Create = graphql(`mutation CreateInvite($maxUse: Int, $expiresAt: String) { createInvite(maxUse: $maxUse, expiresAt: $expiresAt) { id token } }`);
const Email = graphql(`mutation EmailInvite($email: String!, $name: String) { emailInvite(email: $email, name: $name) { id } }`);
const Revoke = graphql(`mutation RevokeInvite($token: String!) { revokeInvite(token: $token) { id used } }`);

export function Invites() {
  const [{ data, error, fetching }, refetch] = useQuery({ query: InvitesQuery });
  const [created, create] = useMutation(Create);
  const [emailed, email] = useMutation(Email);
  const [, revoke] = useMutation(Revoke);
  const [maxUse, setMaxUse] = useState("");
  const [expiresAt, setExpiresAt] = useState("");
  const [to, setTo] = useState({ email: "", name: "" });
  const [sent, setSent] = useState<string | null>(null);

  return (
    <>
      <h1>Invites</h1>
      <ErrorBox error={error ?? created.error ?? emailed.error} />
      <section aria-labelledby="generate">
        <h2 id="generate">Generate an invite</h2>
        <form
          className="row"
          onSubmit={async (e) => {
            e.preventDefault();
            const r = await create({ maxUse: maxUse ? Number(maxUse) : null, expiresAt: expiresAt || null });
            if (!r.error) refetch();
          }}
        >
          <label>
            Uses (empty: one)
            <input type="number" min={1} value={maxUse} onChange={(e) => setMaxUse(e.target.value)} />
          </label>
          <label>
            Expires on
            <input type="date" value={expiresAt} onChange={(e) => setExpiresAt(e.target.value)} />
          </label>
          <button type="submit">Generate</button>
        </form>
        {created.data && (
          <p role="status">
            New invite: <code data-testid="new-invite">{created.data.createInvite.token}</code>
          </p>
        )}
      </section>
      <section aria-labelledby="send">
        <h2 id="send">Send an invite by e-mail</h2>
        <form
          className="row"
          onSubmit={async (e) => {
            e.preventDefault();
            const r = await email({ email: to.email, name: to.name || null });
            if (!r.error) {
              setSent(to.email);
              refetch();
            }
          }}
        >
          <label>
            E-mail
            <input type="email" required value={to.email} onChange={(e) => setTo({ ...to, email: e.target.value })} />
          </label>
          <label>
            Name
            <input value={to.name} onChange={(e) => setTo({ ...to, name: e.target.value })} />
          </label>
          <button type="submit">Send</button>
        </form>
        {sent && <p role="status">Invite sent to {sent}.</p>}
      </section>
      <section aria-labelledby="all">
        <h2 id="all">All invites</h2>
        {fetching && !data && <Loading />}
        {data && (
          <ActionList
            items={data.adminInvites}
            itemKey={(i) => String(i.id)}
            caption="Invites"
            empty="No invites yet."
            columns={[
              { header: "Token", cell: (i) => <code>{i.token}</code> },
              { header: "Type", cell: (i) => i.inviteType.replaceAll("_", " ") },
              { header: "Uses", cell: (i) => `${i.uses}${i.maxUse ? ` / ${i.maxUse}` : ""}` },
              { header: "Expires", cell: (i) => i.expiresAt ?? "never" },
              { header: "State", cell: (i) => (i.used ? "used or revoked" : "valid") },
            ]}
            actions={(i) => [!i.used && { label: "Revoke", danger: true, confirm: `Revoke invite ${i.token}?`, run: () => revoke({ token: i.token }) }]}
            onDone={refetch}
          />
        )}
      </section>
    </>
  );
}
