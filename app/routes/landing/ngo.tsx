import { RoleLanding } from "#app/components/landing/role-landing.tsx";

/** /ngo */
export default function NgoLanding() {
  return <RoleLanding role="ngo" />;
}
