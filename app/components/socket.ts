"use client";
// One typed socket.io connection per page, shared by every component that needs it.
import { io, type Socket } from "socket.io-client";
import type { ClientToServerEvents, ServerToClientEvents } from "@/server/realtime/events";

export type StudySocket = Socket<ServerToClientEvents, ClientToServerEvents>;

let socket: StudySocket | undefined;

export function studySocket(): StudySocket {
  socket ??= io({ path: "/socket.io", transports: ["websocket", "polling"] });
  return socket;
}
