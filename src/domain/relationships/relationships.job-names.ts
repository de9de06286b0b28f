// Names of the relationships area's durable jobs (kept apart so operations and handlers share them without an import cycle).

/** Deletes a pair's mute rows once their expiry has passed. Payload: {sourceId, targetId}. */
export const EXPIRE_MUTE_JOB = "relationships.expireMute";
/** Follow, block or mute import. Payload: {accountId, kind, identifiers}. */
export const IMPORT_JOB = "relationships.import";
/** Moves the local followers of a moved account to its new account. Payload: {originId, targetId}. */
export const MOVE_FOLLOWERS_JOB = "relationships.moveFollowers";
