// profileOf: what the chat records of an agent's initialize answer, whatever it left out.
import { describe, expect, it } from "vitest";
import { PROTOCOL_VERSION, type InitializeResponse } from "@agentclientprotocol/sdk";
import { profileOf } from "./acp-handshake.ts";

describe("profileOf", () => {
  it("names the agent by its title, and keeps what it accepts and how it signs in", () => {
    const init = {
      protocolVersion: PROTOCOL_VERSION,
      agentInfo: { name: "tutor", title: "Scripted tutor", version: "1.2.0" },
      agentCapabilities: { loadSession: true, promptCapabilities: { image: true, embeddedContext: false } },
      authMethods: [{ id: "login", name: "Log in", description: "in a terminal" }],
    } as InitializeResponse;
    expect(profileOf(init)).toEqual({
      name: "Scripted tutor",
      version: "1.2.0",
      prompt: { image: true, embeddedContext: false },
      loadSession: true,
      signInMethods: [{ id: "login", name: "Log in", description: "in a terminal" }],
    });
  });

  it("falls back to the agent's name, and accepts only text from an agent that says nothing", () => {
    expect(profileOf({ protocolVersion: PROTOCOL_VERSION, agentInfo: { name: "bare", title: null, version: "" } })).toEqual({
      name: "bare",
      prompt: { image: false, embeddedContext: false },
      loadSession: false,
      signInMethods: [],
    });
    expect(profileOf({ protocolVersion: PROTOCOL_VERSION })).toEqual({
      prompt: { image: false, embeddedContext: false },
      loadSession: false,
      signInMethods: [],
    });
  });
});
