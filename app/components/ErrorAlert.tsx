// What went wrong, said where it happened and announced to screen readers; nothing when all is well.
export function ErrorAlert({ error }: { error: string | null | undefined }) {
  return error ? (
    <p role="alert" className="error">
      {error}
    </p>
  ) : null;
}
