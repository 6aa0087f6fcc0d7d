import { RoleLanding } from "#app/routes/landing/+shared/role-landing.tsx";

/** /donor */
export default function DonorLanding() {
  return <RoleLanding role="donor" />;
}
