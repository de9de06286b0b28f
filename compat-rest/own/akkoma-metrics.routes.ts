// The later family's Prometheus scrape (`GET /api/v1/<family>/metrics`, `/api/v1/akkoma/metrics` with
// API_FAMILY=akkoma): admins with the `admin:metrics` scope, as the family's MetricsController; 404
// when `instance.export_prometheus_metrics` is off. Figures: users, statuses and known domains under
// the family's metric names, the job queue by state, responses by status class, process memory and CPU.
import { serverMetrics } from "../../src/domain/stats/server-metrics.ops.ts";
import { NotFound } from "../../src/kernel/errors.ts";
import { responseCounts } from "../../src/http/request-counts.ts";
import { route } from "../../src/http/routes/route.ts";
import { PROMETHEUS_CONTENT_TYPE, renderExposition, type Metric } from "../../src/views/prometheus.ts";

const gauge = (name: string, help: string, value: number): Metric => ({ name, help, type: "gauge", samples: [{ value }] });

export const akkomaMetricsRoutes = [
  route({
    method: "GET",
    path: "/api/v1/$family/metrics",
    summary: "Prometheus metrics in the text exposition format 0.0.4 (admins; 404 when instance.export_prometheus_metrics is off)",
    produces: "text/plain; version=0.0.4",
    tags: ["Metrics"],
    operation: serverMetrics,
    response: { description: "`text/plain; version=0.0.4` exposition" },
    async handler(ctx, { res }) {
      if (!ctx.config.get("instance", "export_prometheus_metrics")) throw NotFound();
      const m = await serverMetrics(ctx, {});
      const memory = process.memoryUsage();
      const cpu = process.cpuUsage();
      const metrics: Metric[] = [
        // the family's names (its telemetry's last_value metrics), so its dashboards read them
        gauge("pleroma_local_users_total", "Active local accounts", m.localUsers),
        gauge("pleroma_remote_users_total", "Remote accounts known", m.remoteUsers),
        gauge("pleroma_local_statuses_total", "Statuses posted on this instance", m.localStatuses),
        gauge("pleroma_domains_total", "Remote hosts with known accounts", m.domains),
        { name: "job_queue_jobs", help: "Background jobs by state", type: "gauge", samples: Object.entries(m.jobs).map(([state, value]) => ({ labels: { state }, value })) },
        { name: "http_responses_total", help: "HTTP responses sent by this process, by status class", type: "counter", samples: Object.entries(responseCounts()).map(([status_class, value]) => ({ labels: { status_class }, value })) },
        { name: "process_cpu_seconds_total", help: "User and system CPU time of this process", type: "counter", samples: [{ value: (cpu.user + cpu.system) / 1e6 }] },
        gauge("process_resident_memory_bytes", "Resident memory of this process", memory.rss),
        gauge("nodejs_heap_used_bytes", "JavaScript heap in use", memory.heapUsed),
        gauge("nodejs_heap_total_bytes", "JavaScript heap allocated", memory.heapTotal),
        gauge("process_start_time_seconds", "When this process started, in seconds since the epoch", Math.round(Date.now() / 1000 - process.uptime())),
      ];
      res.set("Content-Type", PROMETHEUS_CONTENT_TYPE).send(renderExposition(metrics));
      return undefined;
    },
  }),
];
