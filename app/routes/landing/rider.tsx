import { RoleLanding } from "#app/components/landing/role-landing.tsx";

/** /rider */
export default function RiderLanding() {
  return <RoleLanding role="rider" />;
}
