// Shared pieces of every page: the server's error message, empty states, confirmation of destructive
// actions (a native modal <dialog>: focus moves into it and Escape cancels), and offset pagination.
import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import type { CombinedError } from "@urql/core";

/** The server's own message(s), as the GraphQL response gave them. */
export function errorText(error: CombinedError | Error | string): string {
  if (typeof error === "string") return error;
  if ("graphQLErrors" in error && error.graphQLErrors.length) return error.graphQLErrors.map((e) => e.message).join("; ");
  if ("networkError" in error && error.networkError) return error.networkError.message;
  return error.message;
}

export function ErrorBox({ error }: { error?: CombinedError | Error | string | null }) {
  if (!error) return null;
  return (
    <p role="alert" className="error">
      {errorText(error)}
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="empty">{children}</p>;
}

export function Loading() {
  return <p aria-live="polite">Loading…</p>;
}

/** A button that asks before it acts. */
export function ConfirmButton(props: { label: string; question: string; onConfirm: () => unknown; danger?: boolean; disabled?: boolean; confirmLabel?: string; ariaLabel?: string }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const questionId = useId();
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (open) dialog.current?.showModal();
    else dialog.current?.close();
  }, [open]);
  return (
    <>
      <button type="button" className={props.danger ? "danger" : undefined} disabled={props.disabled} aria-label={props.ariaLabel} aria-haspopup="dialog" onClick={() => setOpen(true)}>
        {props.label}
      </button>
      <dialog ref={dialog} onClose={() => setOpen(false)} aria-labelledby={questionId}>
        {open && (
          <form
            method="dialog"
            onSubmit={(e) => {
              e.preventDefault();
              setOpen(false);
              void props.onConfirm();
            }}
          >
            <p id={questionId}>{props.question}</p>
            <div className="row">
              <button type="button" onClick={() => setOpen(false)} autoFocus>
                Cancel
              </button>
              <button type="submit" className={props.danger ? "danger" : undefined}>
                {props.confirmLabel ?? props.label}
              </button>
            </div>
          </form>
        )}
      </dialog>
    </>
  );
}

/** Offset pages over a Relay connection whose cursors are offsets (the admin lists). */
export function usePager(pageSize: number) {
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const after = cursors.at(-1) ?? null;
  return {
    variables: { first: pageSize, after },
    page: cursors.length,
    reset: () => setCursors([null]),
    controls: (pageInfo: { hasNextPage: boolean; endCursor?: string | null } | undefined, total?: number) => (
      <nav className="pager" aria-label="Pages">
        <button type="button" disabled={cursors.length < 2} onClick={() => setCursors(cursors.slice(0, -1))}>
          Previous
        </button>
        <span>
          Page {cursors.length}
          {total !== undefined ? ` of ${Math.max(1, Math.ceil(total / pageSize))} (${total} in all)` : ""}
        </span>
        <button type="button" disabled={!pageInfo?.hasNextPage} onClick={() => pageInfo?.endCursor && setCursors([...cursors, pageInfo.endCursor])}>
          Next
        </button>
      </nav>
    ),
  };
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return "";
  return new Date(iso).toLocaleString();
}
