// An init script for ours' page: it asks for output as strings (`binary` dropped from its socket.io attach
// request), as it did before output went as bytes (server/realtime/output-wire.ts): the same build
// compared with and without it (bench/flood-trace.ts; BENCH_TEXT_OUTPUT=1 npm run bench).
export const TEXT_OUTPUT = `(() => {
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    return send.call(this, typeof data === "string" && data.includes('"terminal:attach"') ? data.replace(',"binary":true', "") : data);
  };
})();`;
