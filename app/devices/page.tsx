import { headers } from "next/headers";
import { getRuntime } from "@/server/runtime";
import { DEVICE_HEADER } from "@/server/security/device-header";
import { DeviceList } from "./DeviceList";
import { PairDevice } from "../components/PairDevice";
import { NotificationSettings } from "./NotificationSettings";

export const dynamic = "force-dynamic";

export default async function DevicesPage() {
  const { access } = getRuntime();
  const [devices, current] = await Promise.all([access.list(), headers().then((h) => h.get(DEVICE_HEADER))]);
  return (
    <div className="stack">
      <h1>Devices</h1>
      <p className="muted">
        {access.requirePairing
          ? "StudyLoop is open to your network: only the devices paired here can use it, this computer included. Revoke one you no longer use or have lost; it is disconnected at once."
          : "StudyLoop is serving this computer only, so no device needs pairing. Devices paired while it was open to the network are listed here."}
      </p>
      <DeviceList initial={devices} current={current} />
      <PairDevice />
      <NotificationSettings />
    </div>
  );
}
