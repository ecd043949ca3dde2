// The request header through which the gate tells Next's pages and route handlers which paired
// device is asking. The gate deletes whatever a client sends under this name before it sets it.
export const DEVICE_HEADER = "x-studyloop-device";
