// Frontends: the installable frontends, whether each is installed, and installing one (confirmed).
import { useMutation, useQuery } from "urql";
import { graphql } from "../graphql.ts";
import { ActionList } from "../components/ActionList.tsx";
import { ErrorBox, Loading } from "../ui.tsx";

const List = graphql(`query Frontends { frontends { name ref git buildUrl installed installedRefs } }`);
const Install = graphql(`mutation InstallFrontend($name: String!, $ref: String) { installFrontend(name: $name, ref: $ref) { name installed } }`);

export function Frontends() {
  const [{ data, error, fetching }, refetch] = useQuery({ query: List });
  const [installed, install] = useMutation(Install);
  return (
    <>
      <h1>Frontends</h1>
      <ErrorBox error={error} />
      {installed.fetching && <p role="status">Installing…</p>}
      {fetching && !data && <Loading />}
      {data && (
        <ActionList
          items={data.frontends}
          itemKey={(f) => f.name}
          caption="Frontends"
          empty="No frontends are configured."
          columns={[
            { header: "Name", cell: (f) => (<>{f.name} <span className="muted">{f.git}</span></>) },
            { header: "Reference", cell: (f) => f.ref },
            { header: "Installed", cell: (f) => (f.installed ? f.installedRefs.join(", ") || "yes" : "no") },
          ]}
          actions={(f) => [{ label: f.installed ? "Reinstall" : "Install", confirm: `Download and install ${f.name} (${f.ref}) from ${f.buildUrl}?`, run: () => install({ name: f.name, ref: f.ref }) }]}
          onDone={refetch}
        />
      )}
    </>
  );
}
