import { RoleLanding } from "#app/components/landing/role-landing.tsx";

/** /donor */
export default function DonorLanding() {
  return <RoleLanding role="donor" />;
}
