// html-validate for the built site (the quality gate in tests/site/quality.test.ts): the recommended
// rules, minus two that argue with decisions taken on purpose.
/** @type {import('html-validate').ConfigData} */
export default {
  extends: ['html-validate:recommended'],
  rules: {
    // Titles are "message — owner/repo": the message is cut at 70 characters on a word boundary
    // (src/lib/error-view.ts) and the repository is kept whole, so a title says where an error comes from.
    'long-title': 'off',
    // The header search is one field that submits on Enter (HTML implicit submission) with a search
    // key on phone keyboards (enterkeyhint); it carries no separate submit button.
    'wcag/h32': 'off',
  },
};
