// Lint: typescript-eslint's recommended rules, React's hook rules, and the layer boundaries of decision 019.
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

/** One import style everywhere: a subpath import (#app/…, #server/…, #shared/…, #tests/…) or ./ within a folder. */
const oneStyle = [
  { regex: "^\\.\\./", message: "Import through #app/, #server/, #shared/ or #tests/ (decision 019); ../ is not used." },
  { regex: "^~/", message: "The ~/ alias is gone: import through #app/… (decision 019)." },
];

/** `no-restricted-imports` for a folder: the one import style plus the layers it may not reach. */
function boundary(...layers) {
  return {
    "no-restricted-imports": [
      "error",
      {
        patterns: [...oneStyle, ...layers.map(([regex, message]) => ({ regex, message }))],
      },
    ],
  };
}

const SERVER_NOT_APP = ["^#app/", "server/ may not import app/: move what both need to shared/ (decision 019)."];
const SHARED_NOT_APP = ["^#app/", "shared/ runs in the browser and the server: it may not import app/ (decision 019)."];
const SHARED_NOT_SERVER = ["^#server/", "shared/ may not import server/ (decision 019)."];
const SHARED_NOT_NODE = ["^node:", "shared/ runs in the browser too: no node: modules (decision 019)."];
const COMPONENT_NOT_SERVER = [
  "^#server/",
  "Components may not import server/: take the data as props, or move the type to shared/ (decision 019).",
];

export default tseslint.config(
  {
    ignores: [
      "build/**",
      // Builds kept to compare with (bench/tbt-pair.ts), git-ignored like build/.
      "build-*/**",
      "bench/bare/build/**",
      "bench/results/**",
      "node_modules/**",
      ".react-router/**",
      "test-results/**",
      "playwright-report/**",
      "data/**",
      "server/db/migrations/**",
    ],
  },
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    rules: {
      ...boundary(),
      // Unused names are errors, except a deliberately ignored one (`_name`) and the rest of a destructuring.
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true }],
    },
  },
  {
    // The two classic hook rules. The plugin's React Compiler rules (set-state-in-effect, refs, ...) are left off:
    // the app does not use the compiler, and its effects set state after hydration on purpose (what the browser
    // can do is known only there).
    files: ["app/**/*.tsx"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
      // The browser's React Router is built without a link's prefetching, a route's page links, fetchers, view
      // transitions and React Server Components (scripts/react-router-unused-plugin.ts, decision 033): a `prefetch`,
      // a page link or a view transition would silently do nothing, a fetcher would throw.
      "no-restricted-syntax": [
        "error",
        {
          selector: "JSXAttribute[name.name='prefetch']",
          message:
            "Links do not prefetch in this build (decision 033): remove the replacement in scripts/react-router-unused-plugin.ts first.",
        },
        {
          selector:
            ":matches(ExportNamedDeclaration > VariableDeclaration > VariableDeclarator[id.name='links'], ExportNamedDeclaration > FunctionDeclaration[id.name='links']) Property[key.name='page']",
          message:
            "A route's page links are left out of this build (decision 033): remove the replacement in scripts/react-router-unused-plugin.ts first.",
        },
        {
          selector:
            "ImportDeclaration[source.value='react-router'] > ImportSpecifier[imported.name=/^(useFetcher|useViewTransitionState)$/], JSXAttribute[name.name=/^(viewTransition|fetcherKey)$/], Property[key.name=/^(viewTransition|fetcherKey)$/], JSXAttribute[name.name='navigate'][value.expression.value=false], Property[key.name='navigate'][value.value=false]",
          message:
            "Fetchers and view transitions are left out of this build (decision 033): remove their replacements in scripts/react-router-unused-plugin.ts first.",
        },
        {
          // Conform's field helpers are 1 KB (gzip) with Babel's helpers; use-schema-form.ts has the same in a few lines.
          selector: "ImportDeclaration[source.value='@conform-to/react'][importKind!='type'] > ImportSpecifier[importKind!='type']",
          message:
            "Take getFormProps, getInputProps, getSelectProps and getTextareaProps from #app/lib/use-schema-form.ts (decision 033); only types from @conform-to/react.",
        },
      ],
    },
  },
  { files: ["server/**/*.{ts,tsx}"], rules: boundary(SERVER_NOT_APP) },
  { files: ["shared/**/*.{ts,tsx}"], rules: boundary(SHARED_NOT_APP, SHARED_NOT_SERVER, SHARED_NOT_NODE) },
  // A loader's helper beside its components (name.server.ts) runs on the server only and may call the domain.
  { files: ["app/components/**/*.{ts,tsx}"], ignores: ["app/components/**/*.server.ts"], rules: boundary(COMPONENT_NOT_SERVER) },
);
