"use client";
// Import a simple CSV of cards (front,back[,topic]) into this topic: all lines or none.
import { useRouter } from "next/navigation";
import { useState } from "react";
import { ErrorAlert } from "../../components/ErrorAlert";
import { callApi } from "../../components/api-client";

export function ImportCards({ topic }: { topic: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onFile = async (event: React.ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    setError(null);
    setDone(null);
    setBusy(true);
    const answer = await callApi<{ imported: number }>("/api/cards/import", { body: { csv: await file.text(), topic } });
    setBusy(false);
    if (!answer.ok) return setError(answer.error);
    setDone(`Imported ${answer.value.imported} card${answer.value.imported === 1 ? "" : "s"} from ${file.name}.`);
    router.refresh();
  };

  return (
    <section className="panel stack" aria-labelledby="import-heading">
      <h2 id="import-heading">Import cards</h2>
      <p className="muted">
        A CSV file, one card per line: <code>front,back</code> or <code>front,back,topic</code> (cards without a topic go into “{topic}”).
        Quote a field that holds a comma. Every line must be valid, or nothing is imported.
      </p>
      <div>
        <label htmlFor="import-csv">CSV file</label>
        <input id="import-csv" type="file" accept=".csv,text/csv,text/plain" onChange={(e) => void onFile(e)} disabled={busy} />
      </div>
      <ErrorAlert error={error} />
      {done ? (
        <p role="status" data-testid="import-done">
          {done}
        </p>
      ) : null}
    </section>
  );
}
