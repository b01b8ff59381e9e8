// A claim's decision rule, written once (spec/reproduce.md REPRO.RULE): two boolean expressions
// over the claim's named numbers. The verdict is `contradicted` when contradicted_if holds, else
// `reproduced` when reproduced_if holds, else `not reproduced`. The rule is evaluated here to give
// the claim's statistic verdict AND exported verbatim in report.json, where the Python check
// re-evaluates it on the reported numbers (tests/reproduce/check_reproduce.py): no copy of a
// rule exists anywhere else.
//
// Grammar (a subset of Python's expression syntax, so that the checker parses it with `ast`):
//   expr  := and ('or' and)*          and := not ('and' not)*       not := 'not' not | cmp
//   cmp   := sum (('<' | '<=' | '>' | '>=' | '==' | '!=') sum)?
//   sum   := prod (('+' | '-') prod)*  prod := unary (('*' | '/') unary)*
//   unary := '-' unary | atom          atom := NUMBER | NAME | FUNC '(' expr (',' expr)* ')' | '('
//   expr ')'
// FUNC is abs, sqrt, log, exp (one argument), min or max (two or more). NAME is one of the
// claim's numbers (a non-finite number is NaN: every comparison with it is false). Booleans are
// 1 and 0. Unknown names, functions or syntax are errors (std::invalid_argument).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "claims.hpp"

namespace dpref::reproduce {

/// The value of `expr` on `numbers` (booleans as 1 / 0).
/// @throws std::invalid_argument naming the expression and the problem
double evaluate_rule(std::string_view expr, const std::vector<number>& numbers);

/// The verdict of c.rule on c.numbers; c.rule.reproduced_if must be non-empty (an empty
/// contradicted_if never holds). @throws std::invalid_argument for an invalid rule
/// @spec REPRO.RULE
verdict decide(const claim& c);

}  // namespace dpref::reproduce
