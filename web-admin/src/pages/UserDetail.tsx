// One user: state and roles, activation, role changes, tags, credentials (components/CredentialsForm.tsx),
// password reset link, MFA off, a backup, a link to their chats, deletion (each destructive action
// confirmed), and the user's statuses (godmode: every visibility).
import { useState } from "react";
import { Link } from "wouter";
import { useMutation, useQuery } from "urql";
import { useRefetchOnModeration } from "../live.ts";
import { graphql } from "../graphql.ts";
import { htmlToText } from "../text.ts";
import { ActionList } from "../components/ActionList.tsx";
import { CredentialsForm } from "../components/CredentialsForm.tsx";
import { ConfirmButton, Empty, ErrorBox, formatDate, Loading } from "../ui.tsx";

const UserQuery = graphql(`
  query User($nickname: String!) {
    adminUser(nicknameOrId: $nickname) {
      id nickname displayName email local deactivated isAdmin isModerator tags mfaEnabled approvalPending confirmationPending createdAt url
    }
    adminUserStatuses(nicknameOrId: $nickname, first: 20, godmode: true) {
      pageInfo { hasNextPage }
      edges { node { id content visibility createdAt sensitive } }
    }
  }
`);
const Toggle = graphql(`mutation Toggle($nickname: String!) { adminToggleActivation(nickname: $nickname) { id deactivated } }`);
const Grant = graphql(`mutation Grant($nicknames: [String!]!, $group: AdminPermissionGroup!) { adminGrantPermission(nicknames: $nicknames, group: $group) { id isAdmin isModerator } }`);
const Revoke = graphql(`mutation Revoke($nicknames: [String!]!, $group: AdminPermissionGroup!) { adminRevokePermission(nicknames: $nicknames, group: $group) { id isAdmin isModerator } }`);
const Tag = graphql(`mutation Tag($nicknames: [String!]!, $tags: [String!]!) { adminTagUsers(nicknames: $nicknames, tags: $tags) { id tags } }`);
const Untag = graphql(`mutation Untag($nicknames: [String!]!, $tags: [String!]!) { adminUntagUsers(nicknames: $nicknames, tags: $tags) { id tags } }`);
const Reset = graphql(`mutation Reset($nickname: String!) { adminPasswordReset(nickname: $nickname) { link } }`);
const DisableMfa = graphql(`mutation DisableMfa($nickname: String!) { adminDisableMfa(nickname: $nickname) }`);
const DeleteUser = graphql(`mutation DeleteUser($nicknames: [String!]!) { adminDeleteUsers(nicknames: $nicknames) { id } }`);
const Backup = graphql(`mutation RequestBackup($nickname: String!) { requestUserBackup(nickname: $nickname) }`);

export function UserDetail({ nickname }: { nickname: string }) {
  const [{ data, error, fetching }, refetch] = useQuery({ query: UserQuery, variables: { nickname } });
  useRefetchOnModeration(refetch);
  const [toggle, runToggle] = useMutation(Toggle);
  const [grant, runGrant] = useMutation(Grant);
  const [revoke, runRevoke] = useMutation(Revoke);
  const [tag, runTag] = useMutation(Tag);
  const [, runUntag] = useMutation(Untag);
  const [reset, runReset] = useMutation(Reset);
  const [mfa, runMfa] = useMutation(DisableMfa);
  const [del, runDelete] = useMutation(DeleteUser);
  const [backup, runBackup] = useMutation(Backup);
  const [newTag, setNewTag] = useState("");
  const [deleted, setDeleted] = useState(false);
  const actionError = toggle.error ?? grant.error ?? revoke.error ?? tag.error ?? reset.error ?? mfa.error ?? del.error ?? backup.error;
  const after = (p: Promise<{ error?: unknown }>) => p.then(() => refetch());

  if (fetching && !data) return <Loading />;
  if (!data)
    return (
      <>
        <h1>@{nickname}</h1>
        <ErrorBox error={error} />
        <Link href="/users">Back to the users</Link>
      </>
    );
  const u = data.adminUser;
  const statuses = data.adminUserStatuses.edges;
  const nicknames = [u.nickname];

  return (
    <>
      <p>
        <Link href="/users">← Users</Link>
      </p>
      <h1>
        @{u.nickname} <span className="muted">{u.displayName}</span>
      </h1>
      <ErrorBox error={actionError} />
      {deleted && <p role="status">The user is deactivated; their content is being removed.</p>}
      <dl className="facts">
        <dt>State</dt>
        <dd data-testid="user-state">{u.deactivated ? "deactivated" : "active"}</dd>
        <dt>Roles</dt>
        <dd>{[u.isAdmin && "admin", u.isModerator && "moderator"].filter(Boolean).join(", ") || "none"}</dd>
        <dt>E-mail</dt>
        <dd>{u.email ?? "—"}</dd>
        <dt>Joined</dt>
        <dd>{formatDate(u.createdAt)}</dd>
        <dt>Multi-factor sign-in</dt>
        <dd>{u.mfaEnabled ? "on" : "off"}</dd>
        <dt>Chats</dt>
        <dd>
          <Link href={`/users/${encodeURIComponent(u.nickname)}/chats`}>Chats of @{u.nickname}</Link>
        </dd>
      </dl>
      <section aria-labelledby="actions">
        <h2 id="actions">Actions</h2>
        <div className="toolbar">
          {u.deactivated ? (
            <ConfirmButton label="Activate" question={`Activate @${u.nickname}?`} onConfirm={() => after(runToggle({ nickname: u.nickname }))} />
          ) : (
            <ConfirmButton label="Deactivate" danger question={`Deactivate @${u.nickname}? They will not be able to sign in.`} onConfirm={() => after(runToggle({ nickname: u.nickname }))} />
          )}
          {u.local &&
            (["moderator", "admin"] as const).map((group) => {
              const has = group === "admin" ? u.isAdmin : u.isModerator;
              return has ? (
                <ConfirmButton key={group} label={`Revoke ${group}`} danger question={`Revoke ${group} from @${u.nickname}?`} onConfirm={() => after(runRevoke({ nicknames, group }))} />
              ) : (
                <ConfirmButton key={group} label={`Make ${group}`} question={`Make @${u.nickname} ${group}?`} onConfirm={() => after(runGrant({ nicknames, group }))} />
              );
            })}
          {u.local && (
            <button type="button" onClick={() => void runReset({ nickname: u.nickname })}>
              Password reset link
            </button>
          )}
          {u.local && (
            <button type="button" onClick={() => void runBackup({ nickname: u.nickname })}>
              Request a backup
            </button>
          )}
          {u.mfaEnabled && <ConfirmButton label="Disable MFA" danger question={`Turn multi-factor sign-in off for @${u.nickname}?`} onConfirm={() => after(runMfa({ nickname: u.nickname }))} />}
          <ConfirmButton
            label="Delete"
            danger
            question={`Delete @${u.nickname} and all their content? This cannot be undone.`}
            onConfirm={async () => {
              const r = await runDelete({ nicknames });
              if (!r.error) setDeleted(true);
              refetch();
            }}
          />
        </div>
        {backup.data && <p role="status">A backup of @{u.nickname} is queued; it appears among their backups when ready.</p>}
        {reset.data && (
          <p role="status">
            Reset link: <code>{reset.data.adminPasswordReset.link}</code>
          </p>
        )}
      </section>
      <section aria-labelledby="tags">
        <h2 id="tags">Tags</h2>
        <ActionList
          items={u.tags}
          itemKey={(t) => t}
          caption={`Tags of @${u.nickname}`}
          listClassName="tags"
          empty="No tags."
          render={(t) => t}
          actions={(t) => [{ label: "×", ariaLabel: `Remove tag ${t}`, confirm: `Remove the tag ${t} from @${u.nickname}?`, run: () => runUntag({ nicknames, tags: [t] }) }]}
          onDone={refetch}
        />
        <form
          className="row"
          onSubmit={(e) => {
            e.preventDefault();
            if (newTag) void after(runTag({ nicknames, tags: [newTag] })).then(() => setNewTag(""));
          }}
        >
          <label>
            New tag
            <input value={newTag} onChange={(e) => setNewTag(e.target.value)} />
          </label>
          <button type="submit">Add tag</button>
        </form>
      </section>
      {u.local && (
        <section aria-labelledby="credentials">
          <h2 id="credentials">Credentials</h2>
          <CredentialsForm nickname={u.nickname} />
        </section>
      )}
      <section aria-labelledby="statuses">
        <h2 id="statuses">Latest statuses{data.adminUserStatuses.pageInfo.hasNextPage ? " (the newest 20)" : ""}</h2>
        {statuses.length === 0 ? (
          <Empty>No statuses.</Empty>
        ) : (
          <ul className="statuses">
            {statuses.map(({ node }) => (
              <li key={node.id}>
                <span className="muted">
                  {formatDate(node.createdAt)} · {node.visibility}
                  {node.sensitive ? " · sensitive" : ""}
                </span>
                <p>{htmlToText(node.content)}</p>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
