import { RoleLanding } from "./+shared/role-landing";

/** /ngo */
export default function NgoLanding() {
  return <RoleLanding role="ngo" />;
}
