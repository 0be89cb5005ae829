/**
 * The linear-time HTML event scanner lives in src/formats/html-events.ts (shared with the Netscape format);
 * re-exported here for the page-metadata parser and the tests that import it from the bookmarks service.
 */
export { scanHtml, scanHtmlYielding, type HtmlHandler, type YieldOptions } from '../../formats/html-events.js';
