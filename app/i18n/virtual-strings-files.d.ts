// The module scripts/strings-files-plugin.ts makes at build: where the strings files are.
declare module "virtual:strings-files" {
  export const STRINGS_BASE: string;
}
