// Typed inputs for a free-form configuration value in the admin API's JSON form (maps, keyword lists,
// tuples, lists and scalars nested at will): a map or keyword list is rows of key and value, a tuple a
// fieldset of its elements, a list rows of values, a string a text field, a number a number field, a
// boolean a checkbox. New rows and emptied values get a type picked from a select.
import { useState } from "react";

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type TupleValue = { tuple: Json[] };

const isTuple = (v: unknown): v is TupleValue => !!v && typeof v === "object" && !Array.isArray(v) && Array.isArray((v as { tuple?: unknown }).tuple);
/** a keyword list: `[{tuple: [":key", value]}, …]` (an empty list stays a list: its rows are plain values) */
const isKeyword = (v: unknown): v is TupleValue[] => Array.isArray(v) && v.length > 0 && v.every((e) => isTuple(e) && e.tuple.length === 2 && typeof e.tuple[0] === "string");
const isMap = (v: unknown): v is Record<string, Json> => !!v && typeof v === "object" && !Array.isArray(v) && !isTuple(v);

const NEW_VALUES = {
  text: () => "",
  number: () => 0,
  "yes/no": () => false,
  list: () => [],
  map: () => ({}),
  "keyword list": () => [{ tuple: [":key1", ""] }],
} as const satisfies Record<string, () => Json | TupleValue[]>;
type NewKind = keyof typeof NEW_VALUES;

function TypePicker({ label, onPick, action }: { label: string; onPick: (v: Json) => void; action: string }) {
  const [kind, setKind] = useState<NewKind>("text");
  return (
    <span className="row">
      <select aria-label={`Type of the new value, ${label}`} value={kind} onChange={(e) => setKind(e.target.value as NewKind)}>
        {Object.keys(NEW_VALUES).map((k) => (
          <option key={k}>{k}</option>
        ))}
      </select>
      <button type="button" onClick={() => onPick(NEW_VALUES[kind]() as Json)}>
        {action}
      </button>
    </span>
  );
}

/** Rows of key and value, for maps (object keys) and keyword lists (`:atom` keys). */
function KeyValueRows({ label, rows, onChange, keyPrefix = "key" }: { label: string; rows: [string, Json][]; onChange: (rows: [string, Json][]) => void; keyPrefix?: string }) {
  return (
    <div role="group" aria-label={label} className="rows nested">
      {rows.length === 0 && <span className="muted">No entries.</span>}
      {rows.map(([key, value], i) => (
        <div key={i} className="kv">
          <input aria-label={`${label}, key ${i + 1}`} value={key} onChange={(e) => onChange(rows.map((r, j) => (j === i ? [e.target.value, r[1]] : r)))} />
          <ValueEditor label={`${label} › ${key || i + 1}`} value={value} onChange={(v) => onChange(rows.map((r, j) => (j === i ? [r[0], v] : r)))} />
          <button type="button" aria-label={`Remove ${label} › ${key || i + 1}`} onClick={() => onChange(rows.filter((_, j) => j !== i))}>
            Remove
          </button>
        </div>
      ))}
      <TypePicker label={label} action="Add an entry" onPick={(v) => onChange([...rows, [`${keyPrefix}${rows.length + 1}`, v]])} />
    </div>
  );
}

export type { Json };

export function ValueEditor({ label, value, onChange }: { label: string; value: Json | undefined; onChange: (v: Json) => void }) {
  if (value === undefined || value === null)
    return (
      <span className="row">
        <span className="muted">Not set.</span>
        <TypePicker label={label} action="Set a value" onPick={onChange} />
      </span>
    );
  if (typeof value === "boolean") return <input type="checkbox" aria-label={label} checked={value} onChange={(e) => onChange(e.target.checked)} />;
  if (typeof value === "number") return <input type="number" aria-label={label} value={value} onChange={(e) => onChange(e.target.value === "" ? 0 : Number(e.target.value))} />;
  if (typeof value === "string") return <input aria-label={label} value={value} onChange={(e) => onChange(e.target.value)} />;
  if (isTuple(value))
    return (
      <fieldset className="tuple">
        <legend>{label} (tuple)</legend>
        {value.tuple.map((element, i) => (
          <ValueEditor key={i} label={`${label}, element ${i + 1}`} value={element} onChange={(v) => onChange({ tuple: value.tuple.map((x, j) => (j === i ? v : x)) } as unknown as Json)} />
        ))}
      </fieldset>
    );
  if (isKeyword(value))
    return (
      <KeyValueRows
        label={label}
        keyPrefix=":key"
        rows={value.map((t) => [String(t.tuple[0]), t.tuple[1] ?? null])}
        onChange={(rows) => onChange(rows.map(([k, v]) => ({ tuple: [k, v] })) as unknown as Json)}
      />
    );
  if (Array.isArray(value))
    return (
      <div role="group" aria-label={label} className="rows nested">
        {value.length === 0 && <span className="muted">Empty list.</span>}
        {value.map((item, i) => (
          <div key={i} className="kv">
            <ValueEditor label={`${label}, item ${i + 1}`} value={item} onChange={(v) => onChange(value.map((x, j) => (j === i ? v : x)))} />
            <button type="button" aria-label={`Remove ${label}, item ${i + 1}`} onClick={() => onChange(value.filter((_, j) => j !== i))}>
              Remove
            </button>
          </div>
        ))}
        <TypePicker label={label} action="Add an item" onPick={(v) => onChange([...value, v])} />
      </div>
    );
  if (isMap(value)) return <KeyValueRows label={label} rows={Object.entries(value)} onChange={(rows) => onChange(Object.fromEntries(rows))} />;
  return null;
}
