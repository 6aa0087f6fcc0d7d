/** Where an NGO's checks are, and where their forms post: the page answers a refusal with the form and its errors. */
export function checksPath(ngoId: string): string {
  return `/admin/ngos/${ngoId}/checks`;
}
