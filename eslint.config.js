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
    // The database rule (docs/architecture.md): the prepared-statement reads are the named
    // functions of db/hot-reads.ts, and no interactive transaction holds the client's one
    // connection across awaits (every other request's read would fail meanwhile).
    files: ["api/src/**/*.ts"],
    ignores: ["api/src/db/hot-reads.ts", "api/src/**/*.test.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "CallExpression[callee.property.name='get'][callee.object.name='database'], CallExpression[callee.property.name='get'][callee.object.property.name='database']",
          message: "Hot reads are named functions in db/hot-reads.ts; read through drizzle (database.db) otherwise.",
        },
        {
          selector: "CallExpression[callee.property.name='transaction'][callee.object.property.name='client']",
          message: "No interactive transaction on the shared client: reads that must agree are one client.batch(reads, \"read\"); writes go through database.writer.",
        },
      ],
    },
  },
  {
    // The PWA's api/ is plain HTTP: query keys and options live in data/ (pwa/README.md, Layers).
    files: ["pwa/src/api/**/*.ts"],
    rules: {
      "no-restricted-imports": ["error", { paths: [{ name: "@tanstack/react-query", message: "api/ is plain HTTP: put query keys and options in pwa/src/data/." }] }],
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
