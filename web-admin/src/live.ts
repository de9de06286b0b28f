// Pages that show state other staff can change refresh when a moderation-log entry is written: every
// moderation action (another administrator's too, in any process) writes one. A viewer without
// `moderation_log_read` gets no such events; the page then simply does not refresh (no error shown).
import { useEffect } from "react";
import { useSubscription } from "urql";
import { graphql } from "./graphql.ts";

const Logged = graphql(`subscription Logged { moderationLogEntryAdded { id } }`);

export function useRefetchOnModeration(refetch: () => void) {
  const [{ data }] = useSubscription({ query: Logged });
  useEffect(() => {
    if (data) refetch();
  }, [data]); // on each new entry only
}
