// Web Push against a push endpoint on 127.0.0.1 whose subscription keys the test made: the payload
// arrives encrypted (aes128gcm) and signed (VAPID), and decrypts to what was sent.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startNtfyServer, startPushEndpoint, vapidClaims, type PushEndpoint } from "../../e2e/support/push-endpoint.ts";
import { WebPushChannel, loadVapidKeys, VAPID_FILE_NAME } from "./web-push-channel.ts";
import { sendNtfy } from "./ntfy-channel.ts";

let dir: string;
let endpoint: PushEndpoint;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-push-"));
  endpoint = await startPushEndpoint();
});
afterAll(async () => {
  await endpoint.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("VAPID keys", () => {
  it("are made on first start, kept 0600, and read back the same", () => {
    const first = loadVapidKeys(dir);
    const file = path.join(dir, VAPID_FILE_NAME);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(loadVapidKeys(dir)).toEqual(first);
    fs.chmodSync(file, 0o644);
    loadVapidKeys(dir);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it("a broken key file is refused with a sentence, not replaced", () => {
    const other = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-push-"));
    fs.writeFileSync(path.join(other, VAPID_FILE_NAME), "{not json");
    expect(() => loadVapidKeys(other)).toThrow(/remove it and restart StudyLoop/);
    expect(fs.readFileSync(path.join(other, VAPID_FILE_NAME), "utf8")).toBe("{not json");
  });
});

describe("WebPushChannel", () => {
  it("delivers an encrypted payload that decrypts (RFC 8291) to the title and link, signed with the server's key", async () => {
    const keys = loadVapidKeys(dir);
    const channel = new WebPushChannel(keys, () => ["127.0.0.1"]);
    const s = endpoint.subscription;
    const payload = {
      type: "show",
      notice: {
        id: "n1",
        title: "The tutor asks for your permission",
        body: "Open StudyLoop to allow or deny it.",
        link: "/study#notice=n1",
        tag: "t",
        urgency: "urgent",
      },
    };
    expect(
      await channel.send({ endpoint: s.endpoint, p256dh: s.keys.p256dh, auth: s.keys.auth }, payload, "high", "permission:abc"),
    ).toEqual({ ok: true });
    expect(endpoint.received).toHaveLength(1);
    const push = endpoint.received[0]!;
    expect(push.headers["content-encoding"]).toBe("aes128gcm");
    expect(push.headers.urgency).toBe("high");
    expect(push.headers.ttl).toBe("900");
    expect(push.body.includes(Buffer.from("permission"))).toBe(false);
    expect(endpoint.decrypt(push)).toEqual(payload);
    const claims = vapidClaims(push.headers.authorization);
    expect(claims.k).toBe(keys.publicKey);
    expect(claims.aud).toBe(new URL(s.endpoint).origin);
  });

  it("a subscription the push service no longer knows is reported gone", async () => {
    const gone = await startPushEndpoint(410);
    const s = gone.subscription;
    const result = await new WebPushChannel(loadVapidKeys(dir), () => ["127.0.0.1"]).send(
      { endpoint: s.endpoint, p256dh: s.keys.p256dh, auth: s.keys.auth },
      {},
      "low",
    );
    await gone.close();
    expect(result).toMatchObject({ ok: false, gone: true });
  });
});

describe("ntfy", () => {
  it("sends nothing to this machine unless the learner allowed it", async () => {
    const ntfy = await startNtfyServer();
    const message = { title: "t", body: "b", urgency: "normal" as const, click: undefined };
    const refused = await sendNtfy(ntfy.url, message, []);
    const push = await startPushEndpoint();
    const s = push.subscription;
    const pushed = await new WebPushChannel(loadVapidKeys(dir)).send(
      { endpoint: s.endpoint, p256dh: s.keys.p256dh, auth: s.keys.auth },
      {},
      "low",
    );
    await ntfy.close();
    await push.close();
    expect(refused).toEqual({
      ok: false,
      detail: expect.stringMatching(/^StudyLoop does not send notifications to 127\.0\.0\.1: it is on this machine or a private network\./),
    });
    expect(pushed).toMatchObject({ ok: false, gone: false });
    expect(ntfy.received).toEqual([]);
    expect(push.received).toEqual([]);
  });

  it("POSTs the text with the title, priority and link as ntfy headers", async () => {
    const ntfy = await startNtfyServer();
    const result = await sendNtfy(
      ntfy.url,
      {
        title: "Time for a break",
        body: "Step away from the screen for a few minutes.",
        urgency: "normal",
        click: "http://127.0.0.1:1/study#notice=x",
      },
      ["127.0.0.1"],
    );
    await ntfy.close();
    expect(result).toEqual({ ok: true });
    expect(ntfy.received).toHaveLength(1);
    expect(ntfy.received[0]).toMatchObject({
      path: "/studyloop-test-topic",
      body: "Step away from the screen for a few minutes.",
      headers: { title: "Time for a break", priority: "3", click: "http://127.0.0.1:1/study#notice=x" },
    });
  });
});
