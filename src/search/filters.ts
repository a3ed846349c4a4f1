/** The search filters: Pagefind filter names, the search page's controls and their labels. */
export const SEARCH_FILTERS = ['repo', 'severity', 'errorType', 'errorClass', 'language', 'tag'] as const;
export type SearchFilter = (typeof SEARCH_FILTERS)[number];

export const FILTER_LABEL: Record<SearchFilter, string> = {
  repo: 'Repository',
  severity: 'Severity',
  errorType: 'Error type',
  errorClass: 'Error class',
  language: 'Language',
  tag: 'Tag',
};
