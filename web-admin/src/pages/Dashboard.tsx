// Dashboard: counts, activity over the last 14 days (new statuses, local and remote, and sign-ups per
// day: bar charts of the `adminActivity` statistic), the need_reboot banner with its restart action, and
// the latest moderation-log entries.
import { Link } from "wouter";
import { useMutation, useQuery } from "urql";
import { useRefetchOnModeration } from "../live.ts";
import { graphql } from "../graphql.ts";
import { ConfirmButton, Empty, ErrorBox, formatDate, Loading } from "../ui.tsx";

const DAYS = 14;

const DashboardQuery = graphql(`
  query Dashboard($days: Int!) {
    stats { public unlisted private direct }
    recent: moderationLog(first: 8) { edges { node { id message createdAt } } }
    activity: adminActivity(days: $days) { day localStatuses remoteStatuses signups }
    signups: adminUsers(first: 1, filters: ["local"]) { totalCount }
    openReports: adminReports(first: 1, state: open) { totalCount }
  }
`);

// apart from the rest: it fails when the configuration is not stored in the database (CONFIGURABLE_FROM_DATABASE off)
const NeedReboot = graphql(`query NeedReboot { needReboot }`);
const Restart = graphql(`mutation Restart { restart }`);

/** One bar per day; a bar is split in series stacked bottom-up. The numbers are in the accessible name. */
function DailyChart<D extends { day: string }>({ title, days, series }: { title: string; days: readonly D[]; series: { label: string; value: (d: D) => number; className: string }[] }) {
  const total = (d: D) => series.reduce((n, s) => n + s.value(d), 0);
  const max = Math.max(1, ...days.map(total));
  const describe = (d: D) => `${d.day}: ${series.map((s) => `${s.value(d)} ${s.label}`).join(", ")}`;
  return (
    <figure className="chart">
      <div className="bars" role="img" aria-label={`${title}. ${days.map(describe).join("; ")}`}>
        {days.map((d) => (
          <div key={d.day} className="bar" title={describe(d)}>
            {[...series].reverse().map((s) => (
              <span key={s.label} className={s.className} style={{ height: `${(s.value(d) / max) * 100}%` }} />
            ))}
            <small>{d.day.slice(5)}</small>
          </div>
        ))}
      </div>
      <figcaption>
        {title} (UTC days, highest: {max})
        {series.length > 1 && (
          <span className="legend">
            {series.map((s) => (
              <span key={s.label}>
                <i className={s.className} aria-hidden="true" /> {s.label}
              </span>
            ))}
          </span>
        )}
      </figcaption>
    </figure>
  );
}

export function Dashboard() {
  const [{ data, error, fetching }, refetch] = useQuery({ query: DashboardQuery, variables: { days: DAYS } });
  useRefetchOnModeration(refetch);
  const [reboot, refetchReboot] = useQuery({ query: NeedReboot });
  const [restart, runRestart] = useMutation(Restart);

  return (
    <>
      <h1>Dashboard</h1>
      <ErrorBox error={error ?? restart.error} />
      {fetching && !data && <Loading />}
      {reboot.data?.needReboot && (
        <div className="banner" role="status">
          <p>Some settings change only after a restart.</p>
          <ConfirmButton label="Restart" question="Reload the configuration in every process now?" onConfirm={async () => (await runRestart({}), refetchReboot(), refetch())} />
        </div>
      )}
      {data && (
        <>
          <section aria-labelledby="counts" className="cards">
            <h2 id="counts" className="visually-hidden">
              Counts
            </h2>
            <div className="card">
              <strong>{data.signups.totalCount}</strong> local users
            </div>
            <div className="card">
              <Link href="/reports">
                <strong>{data.openReports.totalCount}</strong> open reports
              </Link>
            </div>
            <div className="card">
              <strong>{data.stats.public + data.stats.unlisted + data.stats.private + data.stats.direct}</strong> statuses ({data.stats.public} public, {data.stats.unlisted} unlisted,{" "}
              {data.stats.private} followers-only, {data.stats.direct} direct)
            </div>
          </section>
          <section aria-labelledby="activity">
            <h2 id="activity">Activity, last {DAYS} days</h2>
            <div className="charts">
              <DailyChart
                title="New statuses per day"
                days={data.activity}
                series={[
                  { label: "local", className: "s1", value: (d) => d.localStatuses },
                  { label: "from other instances", className: "s2", value: (d) => d.remoteStatuses },
                ]}
              />
              <DailyChart title="Sign-ups per day" days={data.activity} series={[{ label: "sign-ups", className: "s1", value: (d) => d.signups }]} />
            </div>
          </section>
          <section aria-labelledby="recent">
            <h2 id="recent">Recent moderation</h2>
            {data.recent.edges.length === 0 ? (
              <Empty>No moderation actions yet.</Empty>
            ) : (
              <ul className="log">
                {data.recent.edges.map(({ node }) => (
                  <li key={node.id}>
                    <time dateTime={node.createdAt}>{formatDate(node.createdAt)}</time> {node.message}
                  </li>
                ))}
              </ul>
            )}
            <Link href="/log">The whole moderation log</Link>
          </section>
        </>
      )}
    </>
  );
}
