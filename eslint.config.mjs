// Format (dprint, configured as the Effect repositories do) and lint in one pass: `npm run lint`, `npm run format`.
import * as effectEslint from "@effect/eslint-plugin"
import eslint from "@eslint/js"
import { defineConfig } from "eslint/config"
import globals from "globals"
import tseslint from "typescript-eslint"

export default defineConfig(
  {
    ignores: [
      "node_modules/**",
      ".data/**",
      "bench/results/**",
      "src/web/assets/vendor/**",
      "**/*.d.ts",
      "test/fixtures/**"
    ]
  },
  eslint.configs.recommended,
  tseslint.configs.recommended,
  ...effectEslint.configs.dprint,
  {
    languageOptions: { globals: globals.node },
    rules: {
      // TypeScript itself reports undefined names in .ts files.
      "no-undef": "off",
      // Casts at the edges of typed libraries are allowed; review each in code review.
      "@typescript-eslint/no-explicit-any": "off",
      // Escapes that a reader finds clearer are allowed, and the ledger's canonical JSON matches control characters on purpose.
      "no-useless-escape": "off",
      "no-control-regex": "off",
      "@typescript-eslint/no-empty-object-type": "off",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@effect/dprint": ["error", {
        config: {
          indentWidth: 2,
          lineWidth: 120,
          semiColons: "asi",
          quoteStyle: "alwaysDouble",
          trailingCommas: "never",
          operatorPosition: "maintain",
          "arrowFunction.useParentheses": "force"
        }
      }]
    }
  },
  // The browser scripts are type-checked through JSDoc casts, `/** @type {T} */ (x)`, whose parentheses the
  // formatter would drop; they are linted but not formatted.
  {
    files: ["src/web/assets/**/*.js"],
    languageOptions: { globals: globals.browser },
    rules: { "no-undef": "error", "@effect/dprint": "off" }
  },
  { files: ["**/*.mjs"], rules: { "no-undef": "error" } }
)
