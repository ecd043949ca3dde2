import { getRuntime } from "@/server/runtime";
import { ParkingLot } from "./ParkingLot";
import { foldParkingLot } from "@/common/study/parking-groups";

export const dynamic = "force-dynamic";

export default async function ParkingPage() {
  // The same reader as GET /api/parking; the newest of each group are sent, the rest on request.
  const lot = foldParkingLot(await getRuntime().study.parkingLot());
  return (
    <div className="stack">
      <h1>Parking lot</h1>
      <p className="muted">
        Thoughts parked during your sessions, by you or by your tutor. Resolve what you have sorted out, dismiss what no longer matters, and
        carry the rest into your next session.
      </p>
      <ParkingLot initial={lot} />
    </div>
  );
}
