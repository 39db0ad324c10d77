/** The line under a value editor that says why the value was not taken (read out as an alert). */
export function ErrorLine({ error }: { error: string | null | undefined }) {
  return error ? (
    <span className="value-error" role="alert" data-testid="value-error">
      {error}
    </span>
  ) : null;
}
