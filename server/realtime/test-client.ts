// Tests only: a real socket.io client on the WebSocket transport, connected, closed after the test.
import { io as connect, type Socket as ClientSocket } from "socket.io-client";
import { socketParser } from "../../common/realtime/socket-parser.ts";

export async function connectedClient(url: string, cleanups: (() => Promise<void> | void)[]): Promise<ClientSocket> {
  const socket = connect(url, { transports: ["websocket"], reconnection: false, forceNew: true, parser: socketParser });
  cleanups.push(() => void socket.disconnect());
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("connect_error", reject);
  });
  return socket;
}
