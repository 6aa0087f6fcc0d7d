import { RoleLanding } from "./+shared/role-landing";

/** /donor */
export default function DonorLanding() {
  return <RoleLanding role="donor" />;
}
