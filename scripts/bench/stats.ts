// Latency figures shared by the benchmarks (soak, stream, reading): nearest-rank percentiles.

/** The p-th percentile (nearest rank) of the ascending `sorted`; NaN when there are no samples. */
export function percentile(sorted: readonly number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** An ascending copy of `xs`. */
export const ascending = (xs: readonly number[]): number[] => [...xs].sort((a, b) => a - b);
