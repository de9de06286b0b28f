// A user's credentials as an administrator edits them: e-mail, display name, bio, actor type, the profile
// switches, the images (URLs; empty removes one), the profile fields (rows of name and value) and a new
// password. Only the images that changed are sent, so a stored path is never rewritten as shown.
import { useState } from "react";
import { useMutation, useQuery } from "urql";
import { graphql } from "../graphql.ts";
import { ErrorBox, Loading } from "../ui.tsx";

const Credentials = graphql(`query Credentials($nickname: String!) {
  adminUserCredentials(nickname: $nickname) { email name bio actorType locked isDiscoverable hideFollows hideFollowers hideFavorites showRole noRichText avatar banner background fields { name value } }
}`);
const UpdateCredentials = graphql(`mutation UpdateCredentials($nickname: String!, $input: AdminCredentialsInput!) { adminUpdateCredentials(nickname: $nickname, input: $input) { id email displayName } }`);

const SWITCHES = [
  ["locked", "Locked (approves followers)"],
  ["isDiscoverable", "Discoverable"],
  ["hideFollows", "Hide follows"],
  ["hideFollowers", "Hide followers"],
  ["hideFavorites", "Hide favourites"],
  ["showRole", "Show role"],
  ["noRichText", "No rich text"],
] as const;

const IMAGES = [
  ["avatar", "Avatar URL"],
  ["banner", "Banner URL"],
  ["background", "Background URL"],
] as const;

type Field = { name: string; value: string };

function ProfileFields({ fields, onChange }: { fields: Field[]; onChange: (f: Field[]) => void }) {
  return (
    <fieldset>
      <legend>Profile fields</legend>
      {fields.length === 0 && <p className="muted">No profile fields.</p>}
      {fields.map((f, i) => (
        <div key={i} className="row">
          <label>
            Name {i + 1}
            <input value={f.name} onChange={(e) => onChange(fields.map((x, j) => (j === i ? { ...x, name: e.target.value } : x)))} />
          </label>
          <label>
            Value {i + 1}
            <input value={f.value} onChange={(e) => onChange(fields.map((x, j) => (j === i ? { ...x, value: e.target.value } : x)))} />
          </label>
          <button type="button" aria-label={`Remove profile field ${i + 1}`} onClick={() => onChange(fields.filter((_, j) => j !== i))}>
            Remove
          </button>
        </div>
      ))}
      <button type="button" onClick={() => onChange([...fields, { name: "", value: "" }])}>
        Add a profile field
      </button>
    </fieldset>
  );
}

export function CredentialsForm({ nickname }: { nickname: string }) {
  const [{ data, error }, refetch] = useQuery({ query: Credentials, variables: { nickname } });
  const [saved, save] = useMutation(UpdateCredentials);
  const [done, setDone] = useState(false);
  const [fields, setFields] = useState<Field[] | null>(null);
  if (error) return <ErrorBox error={error} />;
  if (!data) return <Loading />;
  const c = data.adminUserCredentials;
  const shownFields = fields ?? c.fields.map(({ name, value }) => ({ name, value }));
  return (
    <form
      className="stack"
      onSubmit={async (e) => {
        e.preventDefault();
        const f = new FormData(e.currentTarget);
        const switches = Object.fromEntries(SWITCHES.map(([key]) => [key, f.get(key) === "on"]));
        const images = Object.fromEntries(IMAGES.map(([key]) => [key, String(f.get(key) ?? "")]).filter(([key, value]) => value !== (c[key as (typeof IMAGES)[number][0]] ?? "")));
        const password = String(f.get("password") ?? "");
        const input = {
          email: String(f.get("email")),
          name: String(f.get("name")),
          bio: String(f.get("bio")),
          actorType: String(f.get("actorType")),
          ...switches,
          ...images,
          ...(fields ? { fields } : {}),
          ...(password ? { password } : {}),
        };
        const r = await save({ nickname, input });
        setDone(!r.error);
        if (!r.error) (setFields(null), refetch());
      }}
    >
      <ErrorBox error={saved.error} />
      {done && <p role="status">Saved.</p>}
      <label>
        E-mail
        <input name="email" type="email" defaultValue={c.email ?? ""} />
      </label>
      <label>
        Display name
        <input name="name" defaultValue={c.name} />
      </label>
      <label>
        Bio
        <textarea name="bio" defaultValue={c.bio} rows={3} />
      </label>
      <label>
        Actor type
        <select name="actorType" defaultValue={c.actorType}>
          <option>Person</option>
          <option>Service</option>
        </select>
      </label>
      <fieldset>
        <legend>Profile switches</legend>
        {SWITCHES.map(([key, label]) => (
          <label key={key} className="check">
            <input type="checkbox" name={key} defaultChecked={c[key]} /> {label}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Images (empty: none)</legend>
        {IMAGES.map(([key, label]) => (
          <label key={key}>
            {label}
            <input name={key} type="url" defaultValue={c[key] ?? ""} />
          </label>
        ))}
      </fieldset>
      <ProfileFields fields={shownFields} onChange={setFields} />
      <label>
        New password (the user must change it at next sign-in; empty: unchanged)
        <input name="password" type="password" autoComplete="new-password" />
      </label>
      <button type="submit">Save credentials</button>
    </form>
  );
}
