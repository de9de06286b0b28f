// Reports: by state (open, resolved, closed), grouped by reported account; notes; the reported
// statuses with their moderation actions (sensitive, visibility, delete). New reports appear live.
import { useEffect, useState } from "react";
import { Link } from "wouter";
import { useMutation, useQuery, useSubscription } from "urql";
import { useRefetchOnModeration } from "../live.ts";
import { graphql, type ResultOf } from "../graphql.ts";
import { StatusModeration } from "../components/StatusModeration.tsx";
import { ActionList } from "../components/ActionList.tsx";
import { Empty, ErrorBox, formatDate, Loading, usePager } from "../ui.tsx";

const ReportFields = graphql(`
  fragment ReportFields on Report @_unmask {
    id state content createdAt
    account { id nickname displayName }
    actor { id nickname }
    statuses { id content visibility sensitive }
    removedStatuses { id content }
    notes { id content createdAt author { nickname } }
  }
`);

const ReportsQuery = graphql(
  `
  query Reports($state: ReportState, $first: Int, $after: String) {
    adminReports(state: $state, first: $first, after: $after) {
      totalCount
      pageInfo { hasNextPage endCursor }
      edges { node { ...ReportFields } }
    }
  }
`,
  [ReportFields],
);

const Filed = graphql(`subscription Filed { reportFiled { id account { nickname } } }`);
const SetState = graphql(`mutation SetState($id: ID!, $state: ReportState!) { updateReportState(id: $id, state: $state) { id state } }`);
const AddNote = graphql(`mutation AddNote($reportId: ID!, $content: String!) { addReportNote(reportId: $reportId, content: $content) { id } }`);
const DeleteNote = graphql(`mutation DeleteNote($reportId: ID!, $noteId: ID!) { deleteReportNote(reportId: $reportId, noteId: $noteId) { id } }`);

type Report = ResultOf<typeof ReportFields>;
const STATES = ["open", "resolved", "closed"] as const;

function ReportCard({ report, onChange }: { report: Report; onChange: () => void }) {
  const [setState, runSetState] = useMutation(SetState);
  const [note, runNote] = useMutation(AddNote);
  const [, runDelNote] = useMutation(DeleteNote);
  const [text, setText] = useState("");
  const done = (p: Promise<unknown>) => p.then(onChange);
  return (
    <article className="card report" aria-labelledby={`report-${report.id}`}>
      <h3 id={`report-${report.id}`}>
        Report by @{report.actor.nickname} <span className="muted">· {formatDate(report.createdAt)} · {report.state}</span>
      </h3>
      <ErrorBox error={setState.error ?? note.error} />
      {report.content ? <blockquote>{report.content}</blockquote> : <p className="muted">No comment.</p>}
      {report.statuses.length > 0 && (
        <ul className="statuses">
          {report.statuses.map((s) => (
            <StatusModeration key={s.id} status={s} onChange={onChange} />
          ))}
        </ul>
      )}
      {report.removedStatuses.length > 0 && <p className="muted">{report.removedStatuses.length} reported status(es) deleted since.</p>}
      <div className="toolbar">
        {STATES.filter((s) => s !== report.state).map((s) => (
          <button key={s} type="button" onClick={() => void done(runSetState({ id: report.id, state: s }))}>
            {s === "open" ? "Reopen" : s === "resolved" ? "Resolve" : "Close"}
          </button>
        ))}
      </div>
      <h4>Notes</h4>
      <ActionList
        items={report.notes}
        itemKey={(n) => n.id}
        caption={`Notes on the report by @${report.actor.nickname}`}
        empty="No notes."
        render={(n) => (
          <>
            {n.content} <span className="muted">— @{n.author?.nickname ?? "admin token"}, {formatDate(n.createdAt)}</span>
          </>
        )}
        actions={(n) => [{ label: "Delete note", danger: true, confirm: "Delete this note?", run: () => runDelNote({ reportId: report.id, noteId: n.id }) }]}
        onDone={onChange}
      />
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          if (text.trim()) void done(runNote({ reportId: report.id, content: text })).then(() => setText(""));
        }}
      >
        <label>
          New note
          <input value={text} onChange={(e) => setText(e.target.value)} />
        </label>
        <button type="submit">Add note</button>
      </form>
    </article>
  );
}

export function Reports() {
  const [state, setState] = useState<(typeof STATES)[number]>("open");
  const pager = usePager(50);
  const [{ data, error, fetching }, refetch] = useQuery({ query: ReportsQuery, variables: { ...pager.variables, state } });
  useRefetchOnModeration(refetch);
  const [live] = useSubscription({ query: Filed });
  const [announced, setAnnounced] = useState<string | null>(null);
  useEffect(() => {
    if (!live.data) return;
    setAnnounced(`New report about @${live.data.reportFiled.account.nickname}`);
    refetch();
  }, [live.data]); // on each new event only

  const reports = data?.adminReports.edges.map((e) => e.node) ?? [];
  const byAccount = new Map<string, { account: Report["account"]; reports: Report[] }>();
  for (const r of reports) {
    const g = byAccount.get(r.account.id) ?? { account: r.account, reports: [] };
    g.reports.push(r);
    byAccount.set(r.account.id, g);
  }

  return (
    <>
      <h1>Reports</h1>
      <div role="group" aria-label="State" className="tabs">
        {STATES.map((s) => (
          <button
            key={s}
            type="button"
            aria-pressed={state === s}
            onClick={() => {
              pager.reset();
              setState(s);
            }}
          >
            {s[0]!.toUpperCase() + s.slice(1)}
          </button>
        ))}
      </div>
      <p role="status" className="notice">
        {announced}
      </p>
      <ErrorBox error={error ?? live.error} />
      {fetching && !data && <Loading />}
      {data && byAccount.size === 0 && <Empty>No {state} reports.</Empty>}
      {[...byAccount.values()].map((g) => (
        <section key={g.account.id} aria-labelledby={`acct-${g.account.id}`} className="group">
          <h2 id={`acct-${g.account.id}`}>
            <Link href={`/users/${encodeURIComponent(g.account.nickname)}`}>@{g.account.nickname}</Link> <span className="muted">({g.reports.length})</span>
          </h2>
          {g.reports.map((r) => (
            <ReportCard key={r.id} report={r} onChange={refetch} />
          ))}
        </section>
      ))}
      {data && pager.controls(data.adminReports.pageInfo, data.adminReports.totalCount)}
    </>
  );
}
