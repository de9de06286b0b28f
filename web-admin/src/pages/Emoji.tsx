// Emoji packs: list, create, delete (confirmed), import folders copied onto the disk, copy a pack from
// another instance, and per pack: upload an image (multipart upload, or an image URL), rename, delete.
import { useState } from "react";
import { useClient, useMutation, useQuery } from "urql";
import type { CombinedError } from "@urql/core";
import { ActionList } from "../components/ActionList.tsx";
import { graphql } from "../graphql.ts";
import { ConfirmButton, Empty, ErrorBox, Loading } from "../ui.tsx";

const Packs = graphql(`query EmojiPacks { emojiPacks(page: 1, pageSize: 200) { count packs { name filesCount description } } }`);
const Pack = graphql(`query EmojiPackFiles($name: String!) { emojiPack(name: $name, page: 1, pageSize: 500) { name files { shortcode filename } } }`);
const CreatePack = graphql(`mutation CreatePack($name: String!) { createEmojiPack(name: $name) { name } }`);
const DeletePack = graphql(`mutation DeletePack($name: String!) { deleteEmojiPack(name: $name) }`);
const ImportPacks = graphql(`mutation ImportPacks { importEmojiPacks }`);
const RemotePacks = graphql(`query RemoteEmojiPacks($url: String!) { remoteEmojiPacksJson(url: $url, page: 1, pageSize: 200) }`);
const Download = graphql(`mutation DownloadPack($url: String!, $name: String!, $as: String) { downloadEmojiPack(url: $url, name: $name, as: $as) }`);
const AddEmoji = graphql(`mutation AddEmoji($pack: String!, $file: File, $url: String, $shortcode: String) { addEmoji(pack: $pack, file: $file, url: $url, shortcode: $shortcode) { shortcode } }`);
const RenameEmoji = graphql(`mutation RenameEmoji($pack: String!, $shortcode: String!, $newShortcode: String!, $newFilename: String!) { renameEmoji(pack: $pack, shortcode: $shortcode, newShortcode: $newShortcode, newFilename: $newFilename) { shortcode } }`);
const DeleteEmoji = graphql(`mutation DeleteEmoji($pack: String!, $shortcode: String!) { deleteEmoji(pack: $pack, shortcode: $shortcode) { shortcode } }`);

function PackFiles({ name, onChange }: { name: string; onChange: () => void }) {
  const [{ data, error, fetching }, refetch] = useQuery({ query: Pack, variables: { name } });
  const [added, add] = useMutation(AddEmoji);
  const [renamed, rename] = useMutation(RenameEmoji);
  const [deleted, remove] = useMutation(DeleteEmoji);
  const [file, setFile] = useState<File | null>(null);
  const [url, setUrl] = useState("");
  const [shortcode, setShortcode] = useState("");
  const [renaming, setRenaming] = useState<{ from: string; to: string; filename: string } | null>(null);
  const changed = () => (refetch(), onChange());
  return (
    <section aria-labelledby={`pack-${name}`}>
      <h2 id={`pack-${name}`}>Pack {name}</h2>
      <ErrorBox error={error ?? added.error ?? renamed.error ?? deleted.error} />
      <form
        className="row"
        onSubmit={async (e) => {
          e.preventDefault();
          const r = await add({ pack: name, file, url: file ? null : url || null, shortcode: shortcode || null });
          if (!r.error) {
            setShortcode("");
            setUrl("");
            changed();
          }
        }}
      >
        <label>
          Image or zip
          <input type="file" accept="image/*,.zip" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
        </label>
        <label>
          or image URL
          <input type="url" value={url} onChange={(e) => setUrl(e.target.value)} />
        </label>
        <label>
          Shortcode
          <input value={shortcode} onChange={(e) => setShortcode(e.target.value)} />
        </label>
        <button type="submit">Add</button>
      </form>
      {fetching && !data && <Loading />}
      {data &&
        (data.emojiPack.files.length === 0 ? (
          <Empty>This pack has no emoji.</Empty>
        ) : (
          <ul className="emoji">
            {data.emojiPack.files.map((f) => (
              <li key={f.shortcode}>
                <img src={`/emoji/packs/${encodeURIComponent(name)}/${f.filename.split("/").map(encodeURIComponent).join("/")}`} alt={`:${f.shortcode}:`} width={32} height={32} />
                {renaming?.from === f.shortcode ? (
                  <form
                    className="row"
                    onSubmit={async (e) => {
                      e.preventDefault();
                      const r = await rename({ pack: name, shortcode: f.shortcode, newShortcode: renaming.to, newFilename: renaming.filename });
                      if (!r.error) (setRenaming(null), changed());
                    }}
                  >
                    <label>
                      Shortcode
                      <input value={renaming.to} onChange={(e) => setRenaming({ ...renaming, to: e.target.value })} />
                    </label>
                    <label>
                      File name
                      <input value={renaming.filename} onChange={(e) => setRenaming({ ...renaming, filename: e.target.value })} />
                    </label>
                    <button type="submit">Rename</button>
                    <button type="button" onClick={() => setRenaming(null)}>
                      Cancel
                    </button>
                  </form>
                ) : (
                  <>
                    <code>:{f.shortcode}:</code>
                    <button type="button" onClick={() => setRenaming({ from: f.shortcode, to: f.shortcode, filename: f.filename })}>
                      Rename
                    </button>
                    <ConfirmButton label="Delete" danger question={`Delete :${f.shortcode}: and its file?`} onConfirm={() => remove({ pack: name, shortcode: f.shortcode }).then(changed)} />
                  </>
                )}
              </li>
            ))}
          </ul>
        ))}
    </section>
  );
}

export function Emoji() {
  const [{ data, error, fetching }, refetch] = useQuery({ query: Packs });
  const [created, create] = useMutation(CreatePack);
  const [, remove] = useMutation(DeletePack);
  const [imported, runImport] = useMutation(ImportPacks);
  const [downloaded, download] = useMutation(Download);
  const [newName, setNewName] = useState("");
  const [remote, setRemote] = useState({ url: "", name: "", as: "" });
  const [open, setOpen] = useState<string | null>(null);
  const [remotePacks, setRemotePacks] = useState<{ url: string; names: string[] } | null>(null);
  const [browseError, setBrowseError] = useState<CombinedError | null>(null);
  const client = useClient();
  const packs = data?.emojiPacks.packs ?? [];
  /** another instance's pack names, as its pack list names them (`{packs: {name: …}}`) */
  const browse = async () => {
    const r = await client.query(RemotePacks, { url: remote.url }).toPromise();
    setBrowseError(r.error ?? null);
    if (r.data) {
      const listed = JSON.parse(r.data.remoteEmojiPacksJson) as { packs?: Record<string, unknown> };
      setRemotePacks({ url: remote.url, names: Object.keys(listed.packs ?? {}) });
    }
  };
  return (
    <>
      <h1>Emoji packs</h1>
      <ErrorBox error={error ?? created.error ?? imported.error ?? downloaded.error} />
      {imported.data && <p role="status">Imported: {imported.data.importEmojiPacks.join(", ") || "nothing new"}.</p>}
      <div className="row">
        <form
          className="row"
          onSubmit={async (e) => {
            e.preventDefault();
            const r = await create({ name: newName });
            if (!r.error) (setNewName(""), refetch());
          }}
        >
          <label>
            New pack
            <input required value={newName} onChange={(e) => setNewName(e.target.value)} />
          </label>
          <button type="submit">Create</button>
        </form>
        <button type="button" onClick={() => void runImport({}).then(() => refetch())}>
          Import packs from disk
        </button>
      </div>
      <form
        className="row"
        onSubmit={async (e) => {
          e.preventDefault();
          const r = await download({ url: remote.url, name: remote.name, as: remote.as || null });
          if (!r.error) refetch();
        }}
      >
        <label>
          Another instance
          <input type="url" required value={remote.url} onChange={(e) => setRemote({ ...remote, url: e.target.value })} placeholder="https://example.com" />
        </label>
        <label>
          Its pack
          <input required value={remote.name} onChange={(e) => setRemote({ ...remote, name: e.target.value })} />
        </label>
        <label>
          Save as
          <input value={remote.as} onChange={(e) => setRemote({ ...remote, as: e.target.value })} />
        </label>
        <button type="submit">Copy pack</button>
        <button type="button" disabled={!remote.url} onClick={() => void browse()}>
          List its packs
        </button>
      </form>
      <ErrorBox error={browseError} />
      {remotePacks && (
        <section aria-labelledby="remote-packs">
          <h2 id="remote-packs">Packs of {remotePacks.url}</h2>
          <ActionList
            items={remotePacks.names}
            itemKey={(n) => n}
            caption={`Packs of ${remotePacks.url}`}
            empty="That instance lists no packs."
            render={(n) => <strong>{n}</strong>}
            actions={(n) => [
              {
                label: "Copy",
                ariaLabel: `Copy the pack ${n}`,
                confirm: `Download the pack ${n} from ${remotePacks.url}${remote.as ? ` as ${remote.as}` : ""}?`,
                run: () => download({ url: remotePacks.url, name: n, as: remote.as || null }),
              },
            ]}
            onDone={refetch}
          />
        </section>
      )}
      {fetching && !data && <Loading />}
      {data && (
        <ActionList
          items={packs}
          itemKey={(p) => p.name}
          caption="Emoji packs"
          empty="No emoji packs."
          render={(p) => (
            <>
              <strong>{p.name}</strong> <span className="muted">({p.filesCount} emoji)</span>{" "}
              <button type="button" aria-expanded={open === p.name} onClick={() => setOpen(open === p.name ? null : p.name)}>
                {open === p.name ? "Close" : "Manage"}
              </button>
            </>
          )}
          actions={(p) => [{ label: "Delete pack", danger: true, confirm: `Delete the pack ${p.name} and its files?`, run: () => remove({ name: p.name }) }]}
          onDone={refetch}
        />
      )}
      {open && <PackFiles name={open} onChange={refetch} />}
    </>
  );
}
