"""Text -> syntax tree. The Lark parse (`parsing`), syntax errors for people (`errors`) and
the transformer `Build`, one method per grammar rule in a mixin a grammar section
(`declarations`, `statements`, `expressions`); no meaning.
"""

from rulesdsl.lang.syntax.build import Build
from rulesdsl.lang.syntax.errors import keywords as _keywords  # the name other stages import
from rulesdsl.lang.syntax.parsing import (MAX_SOURCE_BYTES, parse, parse_expression, parse_file,
                                          parser, read_source)
