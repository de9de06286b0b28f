// Sign-in: nickname or e-mail and password; when the account has multi-factor sign-in, the server
// answers `mfa_required` and the form asks for the TOTP or a recovery code.
import { useState } from "react";
import { errorMessage, signIn, type Me } from "../session.ts";

export function SignIn({ onSignedIn }: { onSignedIn: (me: Me) => void }) {
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [needCode, setNeedCode] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onSignedIn(await signIn(username, password, needCode ? code : undefined));
    } catch (err) {
      const message = errorMessage(err);
      if (message === "mfa_required") {
        setNeedCode(true);
        setError(null);
      } else setError(message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="card signin" onSubmit={submit} aria-labelledby="signin-title">
      <h1 id="signin-title">Sign in to the administration</h1>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <label>
        Nickname or e-mail
        <input name="username" autoComplete="username" required value={username} onChange={(e) => setUsername(e.target.value)} />
      </label>
      <label>
        Password
        <input name="password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
      </label>
      {needCode && (
        <label>
          Authentication code (from your app) or a recovery code
          <input name="code" autoComplete="one-time-code" inputMode="text" required autoFocus value={code} onChange={(e) => setCode(e.target.value)} />
        </label>
      )}
      <button type="submit" disabled={busy}>
        {needCode ? "Verify and sign in" : "Sign in"}
      </button>
    </form>
  );
}
