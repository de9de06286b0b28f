// One status with its moderation actions: sensitive flag, visibility, deletion (confirmed).
import { useMutation } from "urql";
import { graphql } from "../graphql.ts";
import { htmlToText } from "../text.ts";
import { ConfirmButton, ErrorBox, formatDate } from "../ui.tsx";

const UpdateStatus = graphql(`mutation ModerateStatus($id: ID!, $sensitive: Boolean, $visibility: String) { adminUpdateStatus(id: $id, sensitive: $sensitive, visibility: $visibility) { id sensitive visibility } }`);
const DeleteStatus = graphql(`mutation ModerateDeleteStatus($id: ID!) { adminDeleteStatus(id: $id) }`);

export interface ModeratedStatus {
  id: string;
  content: string;
  visibility: string;
  sensitive: boolean;
  createdAt?: string;
  account?: { nickname: string };
}

export function StatusModeration({ status: s, onChange }: { status: ModeratedStatus; onChange: () => void }) {
  const [update, runUpdate] = useMutation(UpdateStatus);
  const [del, runDelete] = useMutation(DeleteStatus);
  const done = (p: Promise<unknown>) => p.then(onChange);
  return (
    <li>
      {(s.account || s.createdAt) && (
        <span className="muted">
          {s.account ? `@${s.account.nickname} · ` : ""}
          {formatDate(s.createdAt)}
        </span>
      )}
      <p>{htmlToText(s.content)}</p>
      <ErrorBox error={update.error ?? del.error} />
      <div className="toolbar">
        <span className="muted">
          {s.visibility}
          {s.sensitive ? " · sensitive" : ""}
        </span>
        <button type="button" onClick={() => void done(runUpdate({ id: s.id, sensitive: !s.sensitive }))}>
          {s.sensitive ? "Mark not sensitive" : "Mark sensitive"}
        </button>
        <label>
          Visibility
          <select value={s.visibility} onChange={(e) => void done(runUpdate({ id: s.id, visibility: e.target.value }))}>
            {["public", "unlisted", "private"].map((v) => (
              <option key={v}>{v}</option>
            ))}
            {s.visibility === "direct" && <option>direct</option>}
          </select>
        </label>
        <ConfirmButton label="Delete status" danger question="Delete this status for everyone?" onConfirm={() => done(runDelete({ id: s.id }))} />
      </div>
    </li>
  );
}
