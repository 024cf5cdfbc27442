"""One canonical layout for rules files: `format_source(text, path) -> str`.

The formatter works on the parse tree (every token kept, with its original text), so
strings, numbers with `_` separators and `{expr}` holes come out exactly as written, and
on the comments the lexer hands over. It only changes layout; `format_source` checks that
the result parses to the same syntax tree and keeps every comment, in order.

The layout (docs/tools.md says the same for authors):

- Two spaces per level. One statement, one declaration, one kind item, one deck entry per
  line. `{` ends the line that opens a block; `}` starts its own line; `} else {`,
  `} until ...` continue on the closing brace's line.
- A body (a block, a kind's body, a deck, an `ask`) with at most one item stays on one
  line (`{ move c to trick }`, `"pass" { }`) if the author wrote it on one line, holds no
  comment and the item holds no block; an empty body is `{ }`. Every other body is laid
  out one item per line.
- An enum is on one line if written on one line; otherwise its values go one line each
  (values the author put together on one line stay together), every line ending with a
  comma. A board is always laid out: its nodes, then `borders` and the borders, each kept
  to the lines the author grouped them on.
- Spaces: one between words and around operators; none inside brackets, before `,` `:`
  `)` `]`, around `.` and `..`, after a unary minus, before the `(` of a call or
  parameter list and the `[` of an index. Deck entries lose their optional commas.
- Expressions stay on one line. Where the author broke one across lines, the break is
  kept if it sits at a place a break reads well: after a binary operator (`and`, `or`,
  `+`, `==`, ...), after `,`, `where` or `=`; a break just before an operator moves after
  it. A conditional `if ... then ... else if ...` written over several lines is laid out
  with every `else` starting a line. Continuation lines align just inside the innermost
  open bracket; outside brackets they are indented 4 more than the statement, or 2 when
  the expression started on its own line after `=` (a `define` body).
- Blank lines: never two in a row, none after a `{` or before a `}`, none at the start or
  the end of the file. Between top-level declarations of different sorts there is always
  one; between declarations of the same sort (a run of `zone` or `var` lines, of kinds,
  of definitions) the author's choice is kept. For this, `game`, `extends`, `players` and
  `option` are one sort (the header), and `define` and `modifier` are one sort. Inside
  bodies, the author's single blank lines between items are kept.
- `about` and `text NAME` put each of their strings on a line of its own, indented one
  level; a single string written on the head's line stays there. `title`, `text`,
  `internal` and `show` are one sort of declaration.
- Comments are kept, in order. A comment on a line of its own stays on a line of its own,
  before the code that followed it, at that code's indentation; a comment after code stays
  at the end of that line, two spaces after the code. The trailing comments of
  consecutive lines are aligned in one column.
"""

from rulesdsl.lang.fmt.source import FormatError, comments_of, format_source, parse_with_comments
from rulesdsl.lang.fmt.stream import STEP
from rulesdsl.lang.syntax import read_source  # the file's text, read as the parser reads it
