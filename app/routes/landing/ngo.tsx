import { RoleLanding } from "#app/routes/landing/+shared/role-landing.tsx";

/** /ngo */
export default function NgoLanding() {
  return <RoleLanding role="ngo" />;
}
