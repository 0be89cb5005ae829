/**
 * HTML events in linear time: open tag (with attributes), text and close tag, as htmlparser2's Parser
 * reports them in HTML mode (lower-case names, entities decoded, its implied closes and void
 * elements), built on htmlparser2's Tokenizer with an open-element stack kept top-last.
 *
 * Why not the Parser itself: it keeps its stack top-first (`unshift`/`shift`), so every open tag costs
 * the current depth: 400,000 nested <div> took 37 s and 200,000 unclosed <DL> 24 s. Here an open or a
 * close costs O(1) amortised, and a close tag with no open element of its name is found absent at
 * once (a count per name), so any input parses in time linear in its length.
 *
 * Rules: pure (no I/O). `scanHtml` runs to the end at once; `scanHtmlYielding` feeds the text in
 * slices and gives the event loop a turn between them, so a big document never holds the server for
 * more than a slice (about 10 ms of parsing) and can be stopped part-way.
 */
import { Tokenizer } from 'htmlparser2';

export interface HtmlHandler {
  onopentag?(name: string, attrs: Record<string, string>): void;
  ontext?(text: string): void;
  onclosetag?(name: string): void;
}

const P = new Set(['p']);
const FORM = new Set(['input', 'option', 'optgroup', 'select', 'button', 'datalist', 'textarea']);
const DDT = new Set(['dd', 'dt']);
const RTP = new Set(['rt', 'rp']);
const TABLE_SECTION = new Set(['thead', 'tbody']);
/** An open tag of the key closes the open elements of the set on top of the stack (htmlparser2's rules). */
const OPEN_IMPLIES_CLOSE = new Map<string, Set<string>>([
  ['tr', new Set(['tr', 'th', 'td'])],
  ['th', new Set(['th'])],
  ['td', new Set(['thead', 'th', 'td'])],
  ['body', new Set(['head', 'link', 'script'])],
  ['li', new Set(['li'])],
  ['option', new Set(['option'])],
  ['optgroup', new Set(['optgroup', 'option'])],
  ['dd', DDT],
  ['dt', DDT],
  ['rt', RTP],
  ['rp', RTP],
  ['tbody', TABLE_SECTION],
  ['tfoot', TABLE_SECTION],
  ...['select', 'input', 'output', 'button', 'datalist', 'textarea'].map((t) => [t, FORM] as [string, Set<string>]),
  ...[
    'p',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'address',
    'article',
    'aside',
    'blockquote',
    'details',
    'div',
    'dl',
    'fieldset',
    'figcaption',
    'figure',
    'footer',
    'form',
    'header',
    'hr',
    'main',
    'nav',
    'ol',
    'pre',
    'section',
    'table',
    'ul',
  ].map((t) => [t, P] as [string, Set<string>]),
]);
const VOID = new Set(['area', 'base', 'basefont', 'br', 'col', 'command', 'embed', 'frame', 'hr', 'img', 'input', 'isindex', 'keygen', 'link', 'meta', 'param', 'source', 'track', 'wbr']);
const FOREIGN = new Set(['math', 'svg']);
const INTEGRATION = new Set(['mi', 'mo', 'mn', 'ms', 'mtext', 'annotation-xml', 'foreignobject', 'desc', 'title']);

/** Tokenizer callbacks -> handler events, with the open-element stack top-last. */
class Events {
  private readonly stack: string[] = [];
  private readonly openCount = new Map<string, number>();
  private readonly foreign: boolean[] = [false];
  private tagname = '';
  private attribname = '';
  private attribvalue = '';
  private attribs: Record<string, string> | null = null;

  constructor(
    private readonly html: string,
    private readonly h: HtmlHandler,
  ) {}

  private push(name: string): void {
    this.stack.push(name);
    this.openCount.set(name, (this.openCount.get(name) ?? 0) + 1);
  }

  private pop(): string {
    const name = this.stack.pop()!;
    this.openCount.set(name, this.openCount.get(name)! - 1);
    return name;
  }

  /** Reports a close (pop first: `h.onclosetag?.(this.pop())` would skip the pop without a handler). */
  private close(name: string): void {
    this.h.onclosetag?.(name);
  }

  private top(): string | undefined {
    return this.stack[this.stack.length - 1];
  }

  private openTag(name: string): void {
    this.tagname = name;
    const closes = OPEN_IMPLIES_CLOSE.get(name);
    if (closes) while (this.stack.length > 0 && closes.has(this.top()!)) this.close(this.pop());
    if (!VOID.has(name)) {
      this.push(name);
      if (FOREIGN.has(name)) this.foreign.push(true);
      else if (INTEGRATION.has(name)) this.foreign.push(false);
    }
    this.attribs = {};
  }

  private endOpenTag(): void {
    if (this.attribs) {
      this.h.onopentag?.(this.tagname, this.attribs);
      this.attribs = null;
    }
    if (VOID.has(this.tagname)) this.h.onclosetag?.(this.tagname);
    this.tagname = '';
  }

  private closeCurrentTag(): void {
    const name = this.tagname;
    this.endOpenTag();
    if (this.top() === name) {
      this.pop();
      this.h.onclosetag?.(name);
    }
  }

  // --- Tokenizer callbacks (indices are offsets into the whole text) ---
  ontext(start: number, end: number): void {
    this.h.ontext?.(this.html.slice(start, end));
  }
  ontextentity(cp: number): void {
    this.h.ontext?.(String.fromCodePoint(cp));
  }
  onopentagname(start: number, end: number): void {
    this.openTag(this.html.slice(start, end).toLowerCase());
  }
  onopentagend(): void {
    this.endOpenTag();
  }
  onclosetag(start: number, end: number): void {
    const name = this.html.slice(start, end).toLowerCase();
    if ((FOREIGN.has(name) || INTEGRATION.has(name)) && this.foreign.length > 0) this.foreign.pop();
    if (!VOID.has(name)) {
      if ((this.openCount.get(name) ?? 0) > 0) {
        let closed: string;
        do {
          closed = this.pop();
          this.close(closed);
        } while (closed !== name);
      } else if (name === 'p') {
        // </p> without <p>: an empty paragraph, as browsers do
        this.openTag('p');
        this.closeCurrentTag();
      }
    } else if (name === 'br') {
      this.h.onopentag?.('br', {});
      this.h.onclosetag?.('br');
    }
  }
  onselfclosingtag(): void {
    if (this.foreign[this.foreign.length - 1]) this.closeCurrentTag();
    else this.endOpenTag();
  }
  onattribname(start: number, end: number): void {
    this.attribname = this.html.slice(start, end).toLowerCase();
  }
  onattribdata(start: number, end: number): void {
    this.attribvalue += this.html.slice(start, end);
  }
  onattribentity(cp: number): void {
    this.attribvalue += String.fromCodePoint(cp);
  }
  onattribend(): void {
    if (this.attribs && !Object.prototype.hasOwnProperty.call(this.attribs, this.attribname)) this.attribs[this.attribname] = this.attribvalue;
    this.attribvalue = '';
  }
  onend(): void {
    while (this.stack.length > 0) this.close(this.pop());
  }
  oncdata(): void {}
  oncomment(): void {}
  ondeclaration(): void {}
  onprocessinginstruction(): void {}
}

function tokenizerFor(html: string, handler: HtmlHandler): Tokenizer {
  return new Tokenizer({ xmlMode: false, decodeEntities: true }, new Events(html, handler));
}

/** Runs the handler over a whole document at once (linear time; for small or already bounded input). */
export function scanHtml(html: string, handler: HtmlHandler): void {
  const t = tokenizerFor(html, handler);
  t.write(html);
  t.end();
}

export interface YieldOptions {
  /** characters fed to the tokenizer at a time (default 16 Ki) */
  chunkChars?: number;
  /** parse this long before giving the event loop a turn (default 10 ms) */
  sliceMs?: number;
  /** checked after each chunk: true stops the parse there (the open elements are not closed) */
  stop?: () => boolean;
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Runs the handler over a document in slices, yielding to the event loop between them. */
export async function scanHtmlYielding(html: string, handler: HtmlHandler, opts: YieldOptions = {}): Promise<void> {
  const chunk = opts.chunkChars ?? 16 * 1024;
  const sliceMs = opts.sliceMs ?? 10;
  const t = tokenizerFor(html, handler);
  let sliceStart = performance.now();
  for (let at = 0; at < html.length; at += chunk) {
    t.write(html.slice(at, at + chunk));
    if (opts.stop?.()) return;
    if (performance.now() - sliceStart > sliceMs) {
      await turn();
      sliceStart = performance.now();
    }
  }
  t.end();
}
