// A Web Push endpoint on 127.0.0.1 for tests: it stands in for a browser vendor's push service (out
// of reach here). The test makes the subscription's keys itself (an ECDH P-256 pair and a 16-byte
// auth secret), so it can decrypt what StudyLoop sends (RFC 8291, aes128gcm, RFC 8188) with node:crypto.
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedPush {
  readonly headers: http.IncomingHttpHeaders;
  readonly body: Buffer;
}

export interface PushEndpoint {
  readonly subscription: { endpoint: string; keys: { p256dh: string; auth: string } };
  readonly received: ReceivedPush[];
  decrypt(push: ReceivedPush): unknown;
  close(): Promise<void>;
}

export async function startPushEndpoint(status = 201): Promise<PushEndpoint> {
  const ecdh = crypto.createECDH("prime256v1");
  const publicKey = ecdh.generateKeys();
  const auth = crypto.randomBytes(16);
  const received: ReceivedPush[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks) });
      res.statusCode = status;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    subscription: {
      endpoint: `http://127.0.0.1:${port}/push/${crypto.randomUUID()}`,
      keys: { p256dh: publicKey.toString("base64url"), auth: auth.toString("base64url") },
    },
    received,
    decrypt: (push) => JSON.parse(decryptAes128gcm(push.body, ecdh, publicKey, auth).toString("utf8")),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** RFC 8291 §3.4 and RFC 8188 §2: one record, as a push service's client would decrypt it. */
export function decryptAes128gcm(body: Buffer, ecdh: crypto.ECDH, uaPublic: Buffer, authSecret: Buffer): Buffer {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20]!;
  const asPublic = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  if (ciphertext.length > recordSize) throw new Error("more than one record: not what a push message is");
  const ecdhSecret = ecdh.computeSecret(asPublic);
  const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), uaPublic, asPublic]);
  const ikm = Buffer.from(crypto.hkdfSync("sha256", ecdhSecret, authSecret, keyInfo, 32));
  const cek = Buffer.from(crypto.hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: aes128gcm\0"), 16));
  const nonce = Buffer.from(crypto.hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: nonce\0"), 12));
  const decipher = crypto.createDecipheriv("aes-128-gcm", cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02 and then zero or more 0x00 of padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error("the record's padding delimiter is missing");
  return padded.subarray(0, end);
}

/** The VAPID JWT's claims (RFC 8292): who sent it and for which push service. */
export function vapidClaims(authorization: string | undefined): { aud: string; exp: number; sub: string; k: string } {
  const match = /^vapid t=([^,]+),\s*k=(\S+)$/.exec(authorization ?? "");
  if (!match) throw new Error(`not a VAPID authorization: ${authorization}`);
  const payload = JSON.parse(Buffer.from(match[1]!.split(".")[1]!, "base64url").toString("utf8")) as {
    aud: string;
    exp: number;
    sub: string;
  };
  return { ...payload, k: match[2]! };
}

/** A stand-in ntfy server: records each POST (headers and text). */
export async function startNtfyServer(opts: { redirectTo?: string } = {}): Promise<{
  url: string;
  received: { path: string; headers: http.IncomingHttpHeaders; body: string }[];
  close(): Promise<void>;
}> {
  const received: { path: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("utf8")));
    req.on("end", () => {
      if (req.method === "POST") received.push({ path: req.url ?? "", headers: req.headers, body });
      // A server that sends the notification on elsewhere (a redirect must not be followed).
      if (opts.redirectTo) {
        res.writeHead(307, { location: opts.redirectTo });
        return res.end();
      }
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ id: crypto.randomUUID(), event: "message" }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/studyloop-test-topic`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
