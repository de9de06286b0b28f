// A list with actions on each item, shared by the pages: a table (columns) or a plain list (one line per
// item), the empty state, and per-item buttons; an action with a question asks it in a confirmation
// dialog first. An action's failure shows the server's message above the list; success calls `onDone`
// (usually the page's refetch).
import { useState, type ReactNode } from "react";
import type { CombinedError } from "@urql/core";
import { ConfirmButton, Empty, ErrorBox } from "../ui.tsx";

export interface ItemAction {
  label: string;
  run: () => Promise<{ error?: CombinedError } | unknown>;
  /** asked in a confirmation dialog before `run` (every destructive action has one) */
  confirm?: string;
  danger?: boolean;
  /** the accessible name when the label alone is ambiguous (e.g. "×") */
  ariaLabel?: string;
}

export interface Column<T> {
  header: string;
  cell: (item: T) => ReactNode;
}

interface Props<T> {
  items: readonly T[];
  itemKey: (item: T) => string;
  empty: ReactNode;
  actions?: (item: T) => (ItemAction | false | null | undefined)[];
  onDone?: () => unknown;
  /** a table with these columns; without it, a list whose items are `render(item)` */
  columns?: Column<T>[];
  render?: (item: T) => ReactNode;
  caption?: string;
  listClassName?: string;
}

function hasError(result: unknown): result is { error: CombinedError } {
  return !!result && typeof result === "object" && "error" in result && !!(result as { error?: unknown }).error;
}

export function ActionList<T>({ items, itemKey, empty, actions, onDone, columns, render, caption, listClassName }: Props<T>) {
  const [error, setError] = useState<CombinedError | null>(null);
  const buttons = (item: T) =>
    (actions?.(item) ?? []).filter((a): a is ItemAction => !!a).map((a) => {
      const act = async () => {
        const result = await a.run();
        setError(hasError(result) ? result.error : null);
        await onDone?.();
      };
      return a.confirm ? (
        <ConfirmButton key={a.label} label={a.label} ariaLabel={a.ariaLabel} danger={a.danger} question={a.confirm} onConfirm={act} />
      ) : (
        <button key={a.label} type="button" aria-label={a.ariaLabel} className={a.danger ? "danger" : undefined} onClick={() => void act()}>
          {a.label}
        </button>
      );
    });

  if (items.length === 0)
    return (
      <>
        <ErrorBox error={error} />
        <Empty>{empty}</Empty>
      </>
    );
  return (
    <>
      <ErrorBox error={error} />
      {columns ? (
        <div className="table-wrap">
          <table>
            {caption && <caption className="visually-hidden">{caption}</caption>}
            <thead>
              <tr>
                {columns.map((c) => (
                  <th key={c.header} scope="col">
                    {c.header}
                  </th>
                ))}
                {actions && (
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {items.map((item) => (
                <tr key={itemKey(item)}>
                  {columns.map((c) => (
                    <td key={c.header}>{c.cell(item)}</td>
                  ))}
                  {actions && (
                    <td>
                      <div className="toolbar">{buttons(item)}</div>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <ul className={listClassName} aria-label={caption}>
          {items.map((item) => (
            <li key={itemKey(item)}>
              {render?.(item)} {buttons(item)}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
