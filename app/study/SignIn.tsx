// The ways to sign in an agent offered (a chat's entry, a failed start's explanation): its own file, so
// the start form does not bring the chat's Markdown (KaTeX, highlight.js) into the study page's scripts.
import { codeSpans } from "./code-spans";

/** The secrets policy in one sentence (README, "Secrets"): why a key set for StudyLoop is not seen. */
export const SECRETS_NOTE =
  'StudyLoop gives agents no API keys from its own environment unless studyloop.config.json names them for that agent, e.g. `"gemini": {"env": {"pass": ["GEMINI_API_KEY"]}}` (see the README, "Secrets").';

/** Text whose `commands` in backticks show as code. */
export function WithCode({ text }: { text: string }) {
  return <>{codeSpans(text).map((part, i) => (part.code ? <code key={i}>{part.text}</code> : part.text))}</>;
}

/**
 * The ways to sign in the agent offered, and StudyLoop's sentence on how, when there is one; or, when
 * StudyLoop already passed a key and signed in with it, what it tried (never the advice again).
 */
export function SignIn({
  methods,
  hint,
  tried,
}: {
  methods: readonly { id: string; name: string; description?: string }[];
  hint?: string | undefined;
  tried?: string | undefined;
}) {
  if (methods.length === 0 && !hint && !tried) return null;
  return (
    <div className="sign-in" data-testid="sign-in">
      {methods.length > 0 ? (
        <>
          <p>It offers these ways to sign in:</p>
          <ul>
            {methods.map((m) => (
              <li key={m.id} data-testid="sign-in-method">
                <strong>{m.name}</strong>
                {m.description ? (
                  <>
                    {" — "}
                    <WithCode text={m.description} />
                  </>
                ) : null}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {tried ? (
        <p data-testid="sign-in-tried">
          <WithCode text={tried} />
        </p>
      ) : hint ? (
        <p>
          <WithCode text={hint} />
        </p>
      ) : null}
      {tried ? null : (
        <p className="muted">
          <WithCode text={SECRETS_NOTE} />
        </p>
      )}
    </div>
  );
}
