// Job names of the statuses area (a module of their own so ops and handlers import them without a cycle).
export const EXPIRE_STATUS_JOB = "statuses.expire";
export const PUBLISH_SCHEDULED_JOB = "statuses.publishScheduled";
export const CLOSE_POLL_JOB = "polls.close";
