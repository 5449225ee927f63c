// ESLint over every workspace (`npm run lint`, run by .ci/run). Three rules the type checker
// cannot give: no import cycles (a cycle, even of types only, makes a module's meaning depend
// on load order and blocks splitting), no floating promises (a rejection nobody awaits is a
// silent failure or an unhandled-rejection crash) and type-only imports marked as such (the
// bundlers drop them without guessing).
import js from "@eslint/js";
import { importX } from "eslint-plugin-import-x";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: ["**/node_modules/**", "**/dist/**", "coverage/**", "e2e/.tmp/**", "bench/.tmp/**", ".lighthouse/**", "pwa/dev-dist/**"],
  },
  {
    files: ["**/*.{ts,tsx,mts}"],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    plugins: { "import-x": importX },
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ["pwa/vite.config.ts"] }, tsconfigRootDir: import.meta.dirname },
    },
    settings: {
      "import-x/extensions": [".ts", ".tsx", ".mts", ".js", ".mjs"],
      "import-x/resolver-next": [importX.createNodeResolver({ extensions: [".ts", ".tsx", ".mts", ".js", ".mjs", ".json"] })],
    },
    rules: {
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      "@typescript-eslint/no-floating-promises": ["error", { ignoreVoid: true }],
      "@typescript-eslint/consistent-type-imports": ["error", { prefer: "type-imports", fixStyle: "inline-type-imports" }],
      // What tsc (strict) checks already, or what the code uses on purpose.
      "no-undef": "off",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
    },
  },
  {
    files: ["**/*.{js,mjs}"],
    extends: [js.configs.recommended],
    languageOptions: {
      globals: { process: "readonly", console: "readonly", URL: "readonly", fetch: "readonly", setTimeout: "readonly", performance: "readonly", crypto: "readonly", FormData: "readonly", Buffer: "readonly" },
    },
  },
);
