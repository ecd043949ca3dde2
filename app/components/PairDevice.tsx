"use client";
// "Pair a device": fresh one-time links, each with its QR code, for a phone to scan. Only a client
// that is already allowed in (this machine when serving it alone, or a paired device) reaches it.
import { useState } from "react";
import "./devices.css";
import { ErrorAlert } from "./ErrorAlert";
import { callApi } from "./api-client";

interface Link {
  baseUrl: string;
  label: string;
  pairUrl: string;
  expiresAt: string;
  qrSvg: string;
}

type Pairing = { required: boolean; links: Link[] };

/** The loopback link's label: it only works in a browser on this computer, so it gets no QR code. */
const THIS_MACHINE = "this machine";
const lan = (pairing: Pairing) => pairing.links.filter((link) => link.label !== THIS_MACHINE);

export function PairDevice() {
  const [pairing, setPairing] = useState<Pairing | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const fresh = async () => {
    setBusy(true);
    setError(null);
    const answer = await callApi<Partial<Pairing>>("/api/devices/pairing", { method: "POST" });
    setBusy(false);
    if (!answer.ok) setError(answer.error);
    else setPairing({ required: answer.value.required ?? false, links: answer.value.links ?? [] });
  };

  return (
    <section className="panel stack" aria-labelledby="pair-heading" data-testid="pair-device">
      <div className="row spread">
        <h2 id="pair-heading" className="flush">
          Your devices
        </h2>
        <a href="/devices">Manage devices</a>
      </div>
      {pairing === null ? (
        <div>
          <button onClick={() => void fresh()} disabled={busy}>
            {busy ? "Making a link…" : "Pair a device"}
          </button>
        </div>
      ) : !pairing.required ? (
        <p className="muted" data-testid="pairing-not-needed">
          StudyLoop is serving this computer only, so there is nothing to pair. To use it from your phone on the same network, restart it
          with <code>npm run web -- --lan</code> (or <code>studyloop web --lan</code>); pairing links and their QR codes then appear here.
        </p>
      ) : (
        <div className="stack">
          {lan(pairing).length === 0 ? (
            <p className="muted">This computer has no network address right now: connect it to your Wi-Fi and try again.</p>
          ) : (
            <>
              <p className="muted">
                Scan with the phone&apos;s camera, or open the link on it. Each link pairs one device, once, until{" "}
                {new Date(pairing.links[0]!.expiresAt).toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit" })}.
              </p>
              <ul className="pair-links">
                {lan(pairing).map((link) => (
                  <li key={link.pairUrl} data-testid="pair-link">
                    {/* A data: URL of the SVG the server drew; no markup of it enters this page. */}
                    <img
                      className="qr"
                      src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(link.qrSvg)}`}
                      alt={`QR code of the pairing link for ${link.baseUrl}`}
                      width={220}
                      height={220}
                    />
                    <div className="pair-url">
                      <span className="muted">{link.label}</span>
                      <code>{link.pairUrl}</code>
                    </div>
                  </li>
                ))}
              </ul>
            </>
          )}
          {pairing.links
            .filter((link) => link.label === THIS_MACHINE)
            .map((link) => (
              <p key={link.pairUrl} className="muted pair-url" data-testid="pair-link-here">
                For another browser on this computer: <code>{link.pairUrl}</code>
              </p>
            ))}
          <div className="row">
            <button onClick={() => void fresh()} disabled={busy}>
              New links
            </button>
            <button onClick={() => setPairing(null)}>Done</button>
          </div>
        </div>
      )}
      <ErrorAlert error={error} />
    </section>
  );
}
