"""docs/rules.md: the import rules by ID (a letter and digits), one table row each.

A row is `| ID | text |`; every other line is prose. An ID defined twice is an error, as
in the generator's own parser (hostile/src/corpus.cpp, parse_rules).
"""
import re

from . import settings

ROW = re.compile(r"^\| ([A-Z][0-9]+) \| (.*?) *\|$")


class RulesError(ValueError):
    pass


def parse(text):
    """{id: text} from the page's text; RulesError on an ID defined twice."""
    rules = {}
    for number, line in enumerate(text.splitlines(), 1):
        m = ROW.match(line)
        if not m:
            continue
        rule_id, body = m.group(1), m.group(2)
        if rule_id in rules:
            raise RulesError(f"docs/rules.md line {number}: rule {rule_id} is defined twice")
        if not body:
            raise RulesError(f"docs/rules.md line {number}: rule {rule_id} has no text")
        rules[rule_id] = body
    return rules


def load(path=settings.RULES_PAGE):
    with open(path, encoding="utf-8") as f:
        return parse(f.read())
