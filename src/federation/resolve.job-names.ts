// Job names of remote resolution (kept apart so the port and the job table import them without cycles).
/** Re-fetches a remote account's actor document: `{ accountId }`. */
export const REFRESH_ACCOUNT_JOB = "federation.refresh_account";
