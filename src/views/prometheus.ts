// The Prometheus text exposition format (version 0.0.4), written by hand: a dozen gauges and counters
// need `# HELP`, `# TYPE` and `name{label="v"} value` lines, less code than configuring a client
// library's registry and default collectors (docs/dependencies.md, "Not used").
export interface Sample {
  labels?: Record<string, string>;
  value: number;
}

export interface Metric {
  name: string;
  help: string;
  type: "counter" | "gauge";
  samples: Sample[];
}

export const PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

const escapeLabel = (v: string) => v.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"');
const escapeHelp = (v: string) => v.replace(/\\/g, "\\\\").replace(/\n/g, "\\n");

function formatValue(v: number): string {
  if (Number.isNaN(v)) return "NaN";
  if (!Number.isFinite(v)) return v > 0 ? "+Inf" : "-Inf";
  return String(v);
}

export function renderExposition(metrics: readonly Metric[]): string {
  const lines: string[] = [];
  for (const m of metrics) {
    lines.push(`# HELP ${m.name} ${escapeHelp(m.help)}`, `# TYPE ${m.name} ${m.type}`);
    for (const s of m.samples) {
      const labels = Object.entries(s.labels ?? {});
      const labelText = labels.length ? `{${labels.map(([k, v]) => `${k}="${escapeLabel(v)}"`).join(",")}}` : "";
      lines.push(`${m.name}${labelText} ${formatValue(s.value)}`);
    }
  }
  return lines.join("\n") + "\n";
}
