"use client";
// One typed socket.io connection per page, shared by every component that needs it.
import { io, type Socket } from "socket.io-client";
import { socketParser } from "@/common/realtime/socket-parser";
import type { ClientToServerEvents, ServerToClientEvents } from "@/server/realtime/events";
import { callApi } from "./api-client";

export type StudySocket = Socket<ServerToClientEvents, ClientToServerEvents>;

let socket: StudySocket | undefined;

export function studySocket(): StudySocket {
  if (!socket) {
    socket = io({ path: "/socket.io", transports: ["websocket", "polling"], parser: socketParser });
    watchPairing(socket);
  }
  return socket;
}

/**
 * A device revoked while its page is open has its socket closed by the server, and its reconnects
 * refused. The page then asks whether it is still paired and, if not, reloads: the server answers a
 * reload with the page that explains how to pair again.
 */
function watchPairing(s: StudySocket): void {
  let checking = false;
  const check = () => {
    if (checking) return;
    checking = true;
    // No answer (the server is away): socket.io keeps trying.
    void callApi("/api/devices/me", { cache: "no-store" }).then((answer) => {
      checking = false;
      if (!answer.ok && answer.status === 401) window.location.reload();
    });
  };
  s.on("disconnect", (reason) => {
    if (reason === "io server disconnect") check();
  });
  s.on("connect_error", check);
}
