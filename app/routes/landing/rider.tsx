import { RoleLanding } from "./+shared/role-landing";

/** /rider */
export default function RiderLanding() {
  return <RoleLanding role="rider" />;
}
