// The configuration editor, generated from GET /config/descriptions (GraphQL `configDescriptions`):
// one form per key, one typed input per setting: text for strings, atoms and modules, numbers for
// integers, checkboxes for booleans, a line per item for lists of strings or atoms, rows of two fields for
// lists of tuples, interval and count for rate limits (one tuple, or one for anonymous and one for
// signed-in users), checkboxes for lists of atoms out of a known set, a fieldset of the nested settings for groups, and for free-form values (maps, keyword
// lists, tuples, nested at will) rows of key and value and tuple fields (components/ValueEditor.tsx).
// Saving sends only what changed; "Undo last save" stores the values the last save replaced.
import { useMemo, useState } from "react";
import { useMutation, useQuery } from "urql";
import { ValueEditor, type Json } from "../components/ValueEditor.tsx";
import { graphql } from "../graphql.ts";
import { ErrorBox, Loading } from "../ui.tsx";

const ConfigQuery = graphql(`
  query Config {
    configDescriptions { group key label description childrenJson }
    config { needReboot configs { group key valueJson } }
  }
`);
const Update = graphql(`mutation UpdateConfig($configs: [ConfigChangeInput!]!) { updateConfig(configs: $configs) { needReboot } }`);

type FamilyType = string | string[];
interface Child {
  key: string;
  label: string;
  type?: FamilyType;
  description?: string;
  suggestions?: unknown[];
  children?: Child[];
}
type Tuple = { tuple: [string, unknown] };

/** The keyword-list entries of a value in the admin API's JSON form. */
function asTuples(value: unknown): Tuple[] {
  return Array.isArray(value) ? value.filter((v): v is Tuple => !!v && typeof v === "object" && "tuple" in v) : [];
}

type Kind = "string" | "integer" | "boolean" | "lines" | "tuples" | "ratelimit" | "json";

function kind(type: FamilyType | undefined): Kind {
  if (Array.isArray(type) && type[0] === "list" && type[1] === "tuple") return "tuples";
  if (Array.isArray(type) && type[0] === "tuple" && type[1] === "list") return "ratelimit";
  if (type === "string" || type === "atom" || type === "module") return "string";
  if (type === "integer") return "integer";
  if (type === "boolean") return "boolean";
  if (Array.isArray(type) && type[0] === "list" && (type[1] === "string" || type[1] === "atom" || type[1] === "module")) return "lines";
  if (Array.isArray(type) && type.every((t) => t === "string" || t === "atom")) return "string";
  return "json";
}

/** A field's text form (what the input holds) and back. */
function toText(value: unknown, k: Kind): string {
  if (k === "tuples" || k === "ratelimit") return JSON.stringify(value ?? (k === "tuples" ? [] : null));
  if (value === undefined || value === null) return "";
  if (k === "lines") return Array.isArray(value) ? value.join("\n") : "";
  if (k === "json") return JSON.stringify(value);
  return String(value);
}
function fromText(text: string, k: Kind): unknown {
  if (k === "tuples" || k === "ratelimit") return JSON.parse(text);
  if (k === "integer") {
    if (!/^-?\d+$/.test(text.trim())) throw new Error("must be a whole number");
    return Number(text);
  }
  if (k === "boolean") return text === "true";
  if (k === "lines") return text.split("\n").map((l) => l.trim()).filter(Boolean);
  if (k === "json") {
    try {
      return JSON.parse(text);
    } catch {
      throw new Error("is not valid JSON");
    }
  }
  return text;
}

/** The atoms a list of atoms may hold, when the description names them all. */
function choices(child: Child): string[] | undefined {
  const atoms = Array.isArray(child.type) && child.type[0] === "list" && child.type[1] === "atom" ? child.suggestions : undefined;
  return atoms?.length && atoms.every((a) => typeof a === "string") ? (atoms as string[]) : undefined;
}

/** The value a free-form setting starts from when it has none. */
function emptyOf(type: FamilyType | undefined): Json | undefined {
  if (type === "map") return {};
  if (type === "keyword" || (Array.isArray(type) && type[0] === "list")) return [];
  return undefined;
}

const isTuple = (v: unknown): v is { tuple: unknown[] } => !!v && typeof v === "object" && Array.isArray((v as { tuple?: unknown }).tuple);

/** A list of two-element tuples (e.g. `[{tuple: ["example.com", "reason"]}]`): a row of two fields each. */
function TuplesEditor({ id, label, text, onChange }: { id: string; label: string; text: string; onChange: (v: string) => void }) {
  const rows = (JSON.parse(text || "[]") as unknown[]).map((r) => (isTuple(r) ? r.tuple.map((x) => String(x ?? "")) : [String(r), ""]));
  const emit = (next: string[][]) => onChange(JSON.stringify(next.map((r) => ({ tuple: [r[0] ?? "", r[1] ?? ""] }))));
  return (
    <div id={id} role="group" aria-label={label} className="rows">
      {rows.map((r, i) => (
        <div key={i} className="row">
          <input aria-label={`${label} ${i + 1}: first`} value={r[0]} onChange={(e) => emit(rows.map((x, j) => (j === i ? [e.target.value, x[1]!] : x)))} />
          <input aria-label={`${label} ${i + 1}: second`} value={r[1]} onChange={(e) => emit(rows.map((x, j) => (j === i ? [x[0]!, e.target.value] : x)))} />
          <button type="button" aria-label={`Remove ${label} ${i + 1}`} onClick={() => emit(rows.filter((_, j) => j !== i))}>
            Remove
          </button>
        </div>
      ))}
      <button type="button" onClick={() => emit([...rows, ["", ""]])}>
        Add a row
      </button>
    </div>
  );
}

/** A rate limit: `{tuple: [interval ms, requests]}`, or a list of two (anonymous, then signed-in users). */
function RateLimitEditor({ id, label, text, onChange }: { id: string; label: string; text: string; onChange: (v: string) => void }) {
  const value = JSON.parse(text || "null") as unknown;
  const pairs: number[][] = Array.isArray(value) ? value.map((t) => (isTuple(t) ? t.tuple.map(Number) : [0, 0])) : isTuple(value) ? [value.tuple.map(Number)] : [];
  const names = pairs.length === 2 ? ["anonymous", "signed in"] : ["everyone"];
  const emit = (next: number[][]) => onChange(JSON.stringify(next.length === 1 ? { tuple: next[0] } : next.map((p) => ({ tuple: p }))));
  return (
    <div id={id} role="group" aria-label={label} className="rows">
      {pairs.length === 0 && <span className="muted">No limit. </span>}
      {pairs.map((p, i) => (
        <div key={i} className="row">
          <label>
            Interval (ms), {names[i]}
            <input type="number" min={1} value={p[0]} onChange={(e) => emit(pairs.map((x, j) => (j === i ? [Number(e.target.value), x[1]!] : x)))} />
          </label>
          <label>
            Requests, {names[i]}
            <input type="number" min={1} value={p[1]} onChange={(e) => emit(pairs.map((x, j) => (j === i ? [x[0]!, Number(e.target.value)] : x)))} />
          </label>
        </div>
      ))}
      {pairs.length < 2 && (
        <button type="button" onClick={() => emit(pairs.length === 0 ? [[60000, 60]] : [pairs[0]!, [pairs[0]![0]!, pairs[0]![1]! * 2]])}>
          {pairs.length === 0 ? "Set a limit" : "Separate limits for signed-in users"}
        </button>
      )}
    </div>
  );
}

function Field({ child, value, onChange, error, parent }: { child: Child; value: string; onChange: (v: string) => void; error?: string; parent?: string }) {
  const k = kind(child.type);
  const id = `cfg-${parent ? `${parent.replace(/\W/g, "")}-` : ""}${child.key.replace(/\W/g, "")}`;
  const describedBy = `${id}-desc`;
  const common = { id, "aria-describedby": describedBy, "aria-invalid": error ? true : undefined };
  let input;
  if (k === "boolean") input = <input type="checkbox" {...common} checked={value === "true"} onChange={(e) => onChange(String(e.target.checked))} />;
  else if (k === "tuples") input = <TuplesEditor id={id} label={child.label} text={value} onChange={onChange} />;
  else if (k === "ratelimit") input = <RateLimitEditor id={id} label={child.label} text={value} onChange={onChange} />;
  else if (k === "integer") input = <input type="number" {...common} value={value} onChange={(e) => onChange(e.target.value)} />;
  else if (k === "json")
    input = (
      <div id={id} aria-describedby={describedBy}>
        <ValueEditor label={child.label} value={value ? (JSON.parse(value) as Json) : emptyOf(child.type)} onChange={(v) => onChange(JSON.stringify(v))} />
      </div>
    );
  else if (k === "lines" && choices(child)) {
    // a list of atoms out of a known set: one checkbox per atom
    const on = new Set(value.split("\n").filter(Boolean));
    input = (
      <div id={id} role="group" aria-label={child.label} aria-describedby={describedBy} className="choices">
        {choices(child)!.map((atom) => (
          <label key={atom} className="check">
            <input type="checkbox" checked={on.has(atom)} onChange={(e) => onChange(choices(child)!.filter((a) => (a === atom ? e.target.checked : on.has(a))).join("\n"))} /> {atom.replace(/^:/, "")}
          </label>
        ))}
      </div>
    );
  } else if (k === "lines") input = <textarea {...common} rows={3} value={value} onChange={(e) => onChange(e.target.value)} />;
  else input = <input {...common} value={value} onChange={(e) => onChange(e.target.value)} />;
  return (
    <div className={`field ${k}`}>
      {k === "tuples" || k === "ratelimit" || k === "json" || (k === "lines" && choices(child)) ? (
        <span className="field-label">
          {child.label} <code className="muted">{child.key}</code>
        </span>
      ) : (
        <label htmlFor={id}>
          {child.label} <code className="muted">{child.key}</code>
        </label>
      )}
      {input}
      <small id={describedBy}>
        {child.description}
        {k === "lines" && !choices(child) ? " (one per line)" : ""}
      </small>
      {error && (
        <span role="alert" className="error">
          {error}
        </span>
      )}
    </div>
  );
}

export function ConfigEditor() {
  const [{ data, error, fetching }, refetch] = useQuery({ query: ConfigQuery });
  const [saved, save] = useMutation(Update);
  const [selected, setSelected] = useState<string>(":instance");
  const [edits, setEdits] = useState<Record<string, string>>({});
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [lastSave, setLastSave] = useState<{ group: string; key: string; previous: Tuple[] } | null>(null);
  const [message, setMessage] = useState<string | null>(null);

  const descriptions = data?.configDescriptions ?? [];
  const description = descriptions.find((d) => d.key === selected) ?? descriptions[0];
  const children: Child[] = useMemo(() => (description ? JSON.parse(description.childrenJson) : []), [description]);
  const current: Tuple[] = useMemo(() => {
    const entry = data?.config.configs.find((c) => c.group === description?.group && c.key === description?.key);
    return asTuples(entry ? JSON.parse(entry.valueJson) : []);
  }, [data, description]);
  const valueOf = (key: string) => current.find((t) => t.tuple[0] === key)?.tuple[1];

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    if (!description) return;
    const errors: Record<string, string> = {};
    const changed: Tuple[] = [];
    const previous: Tuple[] = [];
    for (const child of children) {
      if (child.children) {
        // a group: its keyword list with the edited entries replaced (the others kept)
        const subs = child.children.filter((sub) => `${child.key}/${sub.key}` in edits);
        if (subs.length === 0) continue;
        const original = asTuples(valueOf(child.key));
        const next = [...original];
        for (const sub of subs) {
          const editKey = `${child.key}/${sub.key}`;
          try {
            const entry: Tuple = { tuple: [sub.key, fromText(edits[editKey]!, kind(sub.type))] };
            const at = next.findIndex((t) => t.tuple[0] === sub.key);
            if (at >= 0) next[at] = entry;
            else next.push(entry);
          } catch (err) {
            errors[editKey] = `${sub.label} ${(err as Error).message}`;
          }
        }
        changed.push({ tuple: [child.key, next] });
        previous.push({ tuple: [child.key, valueOf(child.key) ?? null] });
        continue;
      }
      if (!(child.key in edits)) continue;
      try {
        changed.push({ tuple: [child.key, fromText(edits[child.key]!, kind(child.type))] });
        previous.push({ tuple: [child.key, valueOf(child.key) ?? null] });
      } catch (err) {
        errors[child.key] = `${child.label} ${(err as Error).message}`;
      }
    }
    setFieldErrors(errors);
    if (Object.keys(errors).length || changed.length === 0) return;
    const r = await save({ configs: [{ group: description.group, key: description.key, valueJson: JSON.stringify(changed) }] });
    if (!r.error) {
      setLastSave({ group: description.group, key: description.key, previous: previous.filter((p) => p.tuple[1] !== null) });
      setEdits({});
      setMessage(`Saved ${changed.length} setting(s).`);
      refetch();
    }
  }

  async function undo() {
    if (!lastSave) return;
    const r = await save({ configs: [{ group: lastSave.group, key: lastSave.key, valueJson: JSON.stringify(lastSave.previous) }] });
    if (!r.error) {
      setLastSave(null);
      setMessage("The last save is undone.");
      refetch();
    }
  }

  return (
    <>
      <h1>Configuration</h1>
      <ErrorBox error={error ?? saved.error} />
      {message && <p role="status">{message}</p>}
      {data?.config.needReboot && <p className="banner">Some changed settings apply after a restart (see the dashboard).</p>}
      {fetching && !data && <Loading />}
      {data && (
        <>
          <label htmlFor="config-section">Section</label>{" "}
          <select
              id="config-section"
              value={description?.key}
              onChange={(e) => {
                setSelected(e.target.value);
                setEdits({});
                setFieldErrors({});
              }}
            >
              {descriptions.map((d) => (
                <option key={`${d.group} ${d.key}`} value={d.key}>
                  {d.label}
                </option>
              ))}
            </select>
          {description && (
            <form onSubmit={submit} className="config" aria-labelledby="section-title">
              <h2 id="section-title">{description.label}</h2>
              <p className="muted">{description.description}</p>
              {children.map((child) =>
                child.children ? (
                  <fieldset key={child.key} className="group">
                    <legend>
                      {child.label} <code className="muted">{child.key}</code>
                    </legend>
                    {child.description && <small>{child.description}</small>}
                    {child.children.map((sub) => {
                      const editKey = `${child.key}/${sub.key}`;
                      const subValue = asTuples(valueOf(child.key)).find((t) => t.tuple[0] === sub.key)?.tuple[1];
                      return (
                        <Field
                          key={editKey}
                          parent={child.key}
                          child={sub}
                          value={edits[editKey] ?? toText(subValue, kind(sub.type))}
                          error={fieldErrors[editKey]}
                          onChange={(v) => setEdits({ ...edits, [editKey]: v })}
                        />
                      );
                    })}
                  </fieldset>
                ) : (
                  <Field
                    key={child.key}
                    child={child}
                    value={edits[child.key] ?? toText(valueOf(child.key), kind(child.type))}
                    error={fieldErrors[child.key]}
                    onChange={(v) => setEdits({ ...edits, [child.key]: v })}
                  />
                ),
              )}
              <div className="toolbar sticky">
                <button type="submit" disabled={Object.keys(edits).length === 0}>
                  Save
                </button>
                <button type="button" disabled={Object.keys(edits).length === 0} onClick={() => (setEdits({}), setFieldErrors({}))}>
                  Revert unsaved changes
                </button>
                <button type="button" disabled={!lastSave} onClick={() => void undo()}>
                  Undo last save
                </button>
              </div>
            </form>
          )}
        </>
      )}
    </>
  );
}
