// html-validate for the built site (the quality gate in tests/site/quality.test.ts): the recommended
// rules, minus those that argue with decisions taken on purpose.
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
    // Directory anchors on repository pages are the directory path (`#in-src/engine`), readable when
    // cited; HTML allows any id without white space, which is what `relaxed` checks.
    'valid-id': ['error', { relaxed: true }],
  },
};
