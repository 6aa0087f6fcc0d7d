import { RoleLanding } from "#app/routes/landing/+shared/role-landing.tsx";

/** /rider */
export default function RiderLanding() {
  return <RoleLanding role="rider" />;
}
