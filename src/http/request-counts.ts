// Counts the HTTP responses this process sent, by status class (2xx, 3xx, 4xx, 5xx), for the
// Prometheus scrape (`GET /api/v1/<family>/metrics`). A counter per class is enough for alerting on
// error rates and costs one increment per response; per-route histograms would cost labels and memory.
import type { RequestHandler } from "express";

const counts: Record<string, number> = { "1xx": 0, "2xx": 0, "3xx": 0, "4xx": 0, "5xx": 0 };

export const countResponses: RequestHandler = (_req, res, next) => {
  res.once("finish", () => {
    const key = `${Math.floor(res.statusCode / 100)}xx`;
    if (key in counts) counts[key]!++;
  });
  next();
};

/** Responses sent since the process started, by status class. */
export function responseCounts(): Readonly<Record<string, number>> {
  return counts;
}
